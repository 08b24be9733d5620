//! The one way a probability is printed: as a percentage with a fixed number of decimals
//! ([`percent`]), and a difference of two as signed percentage points ([`points`]). Every
//! renderer (statistics text, Markdown and HTML, mid-game odds, the builder) goes through
//! here, so the same value reads the same everywhere; the renderers differ only in the
//! decimals they ask for and in how they show a value too small for them ([`Small`]).

/// How [`percent`] shows a probability above zero that its decimals would round to zero or
/// nearly so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Small {
    /// Rounded like any other value (`0.0%`).
    Rounded,
    /// `<0.01%` (the last decimal's unit) when it would round to zero: a table says that
    /// such a value is there rather than print zero.
    Below,
    /// `1 in 31,333` when it is below the last decimal's unit: rare events (every copy of a
    /// card prized) stay readable on a page.
    OneIn,
}

/// `p` (a probability, 0 to 1) as a percentage with `decimals` decimals (`37.70%`), a
/// small non-zero value shown as `small` says.
pub fn percent(p: f64, decimals: u8, small: Small) -> String {
    // The last decimal's unit as a probability: 0.0001 for two decimals (0.01 %). A
    // quotient of exact powers of ten, so the thresholds are the decimal literals.
    let unit = 1.0 / 10f64.powi(i32::from(decimals) + 2);
    if p > 0.0 {
        match small {
            Small::Below if p < unit / 2.0 => {
                return format!(
                    "<{:.decimals$}%",
                    unit * 100.0,
                    decimals = usize::from(decimals)
                );
            }
            Small::OneIn if p < unit => return format!("1 in {}", thousands((1.0 / p).round())),
            _ => {}
        }
    }
    format!(
        "{:.decimals$}%",
        p * 100.0,
        decimals = usize::from(decimals)
    )
}

/// A difference of two probabilities in percentage points, signed, with two decimals
/// (`+3.25`).
pub fn points(difference: f64) -> String {
    format!("{:+.2}", difference * 100.0)
}

/// A whole number with a comma every three digits (`31,333`).
fn thousands(value: f64) -> String {
    let digits = format!("{value:.0}");
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Small, percent, points, thousands};

    #[test]
    fn decimals_and_small_values() {
        assert_eq!(percent(0.376952, 2, Small::Below), "37.70%");
        assert_eq!(percent(1.0, 2, Small::OneIn), "100.00%");
        assert_eq!(percent(0.0, 2, Small::Below), "0.00%");
        assert_eq!(percent(0.0, 2, Small::OneIn), "0.00%");
        assert_eq!(percent(0.4, 0, Small::Rounded), "40%");
        assert_eq!(percent(0.741_4, 1, Small::Below), "74.1%");
        // Below half the last decimal: it would print zero.
        assert_eq!(percent(0.000_049, 2, Small::Below), "<0.01%");
        assert_eq!(percent(0.000_05, 2, Small::Below), "0.01%");
        assert_eq!(percent(0.000_49, 1, Small::Below), "<0.1%");
        assert_eq!(percent(0.000_5, 1, Small::Below), "0.1%");
        // Below the last decimal's unit: one in so many.
        assert_eq!(percent(3.19157e-5, 2, Small::OneIn), "1 in 31,333");
        assert_eq!(percent(0.000_1, 2, Small::OneIn), "0.01%");
        assert_eq!(percent(0.000_01, 1, Small::Rounded), "0.0%");
        assert_eq!(points(0.032_5), "+3.25");
        assert_eq!(points(-0.01), "-1.00");
        assert_eq!(thousands(1234567.0), "1,234,567");
        assert_eq!(thousands(999.0), "999");
    }
}
