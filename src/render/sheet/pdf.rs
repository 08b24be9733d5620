//! A [`Sheet`] drawn as PDF, laid out like the official Play! Pokémon deck list: a title
//! band with the format checkboxes, one line for the player's name, ID and date of birth,
//! a left column with the age division, the deck's totals and verdict and an
//! "administrative use only" box, and a right column with the Pokémon, Trainer and Energy
//! tables (grey section bar, black column header, light rows).
//!
//! The official form has 10 Pokémon, 18 Trainer and 4 Energy rows; a sheet pads each
//! table to that many rows (blank rows to write in) when everything fits on one page, and
//! otherwise flows the tables onto further pages, never cutting a card. Text is set in
//! DejaVu Sans Condensed, embedded (subset) in the file, which covers every card name
//! (é, δ, ◇, ★, ♀, ♂); a name too long for its cell is set smaller, never cut. The PDF
//! carries no creation date, so the same sheet gives the same bytes.

use krilla::Document;
use krilla::color::{luma, rgb};
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Paint, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};

use super::{Row, Sheet, SheetSection, section_word, us_date};
use crate::deck::Section;
use crate::render::sheet::Division;

/// DejaVu Sans Condensed (Bitstream Vera licence, assets/fonts/LICENSE-DejaVu.txt).
static REGULAR: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed.ttf");
static BOLD: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed-Bold.ttf");

/// The paper the sheet is printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    /// US Letter, 8.5 × 11 in, as the official North American form.
    #[default]
    Letter,
    /// A4, 210 × 297 mm.
    A4,
}

impl Paper {
    /// Width and height in points.
    fn size(self) -> (f32, f32) {
        match self {
            Paper::Letter => (612.0, 792.0),
            Paper::A4 => (595.28, 841.89),
        }
    }
}

/// Why no PDF was made: the embedded font could not be read or the PDF writer failed.
/// Neither happens with the fonts the binary carries; the error keeps the tool from
/// panicking if it ever did.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the registration sheet could not be drawn: {0}")]
pub struct PdfError(String);

/// Page margin, as the official form's (half an inch).
const MARGIN: f32 = 36.0;
/// Width of the card tables (the official form's right column).
const TABLE_WIDTH: f32 = 318.0;
/// Gap between the columns.
const GUTTER: f32 = 10.0;
/// Height of a table row, a section bar and a column header (the official form's).
const ROW: f32 = 13.1;
/// Space after a table.
const TABLE_GAP: f32 = 10.0;
/// Where the columns start on the first page and on the following ones.
const FIRST_TOP: f32 = 122.0;
const NEXT_TOP: f32 = 92.0;
/// Height kept free at the bottom of the right column for the notes.
const NOTES: f32 = 34.0;
/// The rows of the official form, per section.
const FORM_ROWS: [(Section, usize); 3] = [
    (Section::Pokemon, 10),
    (Section::Trainer, 18),
    (Section::Energy, 4),
];
/// Column widths of a table: QTY, NAME, SET, COLL. #, REG (they add up to TABLE_WIDTH).
const COLUMNS: [f32; 5] = [36.0, 171.0, 37.0, 38.0, 36.0];
const HEADINGS: [&str; 5] = ["QTY:", "NAME:", "SET:", "COLL. #:", "REG:"];

/// The sheet as a PDF file.
pub fn pdf(sheet: &Sheet, paper: Paper) -> Result<Vec<u8>, PdfError> {
    let fonts = Fonts::load()?;
    let (width, height) = paper.size();
    let pages = flow(sheet, height);
    let mut document = Document::new();
    document.set_metadata(
        Metadata::new()
            // The title goes into the XMP packet, which is XML: control characters (which
            // XML may not hold, even escaped) are written as `\u{...}`; the PDF writer
            // escapes `<`, `>` and `&`.
            .title(match &sheet.player {
                Some(player) => format!(
                    "Deck registration sheet: {}",
                    crate::util::escape::visible_line(player)
                ),
                None => "Deck registration sheet".to_string(),
            })
            .creator(format!("deckbox {}", env!("CARGO_PKG_VERSION")))
            .language("en".to_string()),
    );
    let count = pages.len();
    for (index, items) in pages.iter().enumerate() {
        let settings = PageSettings::from_wh(width, height)
            .ok_or_else(|| PdfError(format!("{width}×{height} is no page size")))?;
        let mut page = document.start_page_with(settings);
        {
            let mut canvas = Canvas {
                surface: page.surface(),
                fonts: &fonts,
            };
            let layout = Layout { width, height };
            if index == 0 {
                layout.first_page(&mut canvas, sheet);
            } else {
                layout.next_page_header(&mut canvas, sheet);
            }
            for (y, item) in items {
                layout.item(&mut canvas, *y, item);
            }
            layout.notes(&mut canvas, sheet, index + 1, count);
        }
        page.finish();
    }
    document
        .finish()
        .map_err(|error| PdfError(format!("{error:?}")))
}

/// One thing in a card table.
#[derive(Debug, Clone, PartialEq)]
enum Item<'a> {
    /// The grey bar naming the section, with its total; `continued` on a later page.
    Bar {
        section: Section,
        total: u64,
        continued: bool,
    },
    /// The black bar with the column headings.
    Heading,
    /// A card.
    Card(&'a Row),
    /// A blank row to write in.
    Blank,
}

/// The items of every page, each at its top y.
fn flow(sheet: &Sheet, height: f32) -> Vec<Vec<(f32, Item<'_>)>> {
    let bottom = height - MARGIN - NOTES;
    let first_room = bottom - FIRST_TOP;
    let padded = |section: &SheetSection| {
        let form = FORM_ROWS
            .iter()
            .find(|(kind, _)| *kind == section.section)
            .map_or(0, |(_, rows)| *rows);
        section.rows.len().max(form)
    };
    let height_of = |rows: usize| 2.0 * ROW + rows as f32 * ROW + TABLE_GAP;
    let pad = sheet
        .sections
        .iter()
        .map(|section| height_of(padded(section)))
        .sum::<f32>()
        <= first_room + TABLE_GAP;
    let mut pages: Vec<Vec<(f32, Item<'_>)>> = vec![Vec::new()];
    let mut y = FIRST_TOP;
    for section in &sheet.sections {
        let rows = section.rows.iter().map(Item::Card);
        let blanks = if pad {
            padded(section) - section.rows.len()
        } else {
            0
        };
        let mut lines: Vec<Item<'_>> = rows
            .chain(std::iter::repeat_n(Item::Blank, blanks))
            .collect();
        if lines.is_empty() {
            lines.push(Item::Blank);
        }
        let mut continued = false;
        let mut lines = lines.into_iter().peekable();
        while lines.peek().is_some() {
            // A bar, its heading and at least one row stay together.
            if y + 3.0 * ROW > bottom {
                pages.push(Vec::new());
                y = NEXT_TOP;
            }
            let page = pages.len() - 1;
            pages[page].push((
                y,
                Item::Bar {
                    section: section.section,
                    total: section.total,
                    continued,
                },
            ));
            pages[page].push((y + ROW, Item::Heading));
            y += 2.0 * ROW;
            while y + ROW <= bottom
                && let Some(line) = lines.next()
            {
                pages[page].push((y, line));
                y += ROW;
            }
            continued = true;
        }
        y += TABLE_GAP;
    }
    pages
}

/// The two faces: a PDF font for drawing and a shaper for measuring.
struct Fonts {
    regular: Face,
    bold: Face,
}

struct Face {
    font: Font,
    shaper: rustybuzz::Face<'static>,
}

impl Fonts {
    fn load() -> Result<Fonts, PdfError> {
        Ok(Fonts {
            regular: Face::load(REGULAR)?,
            bold: Face::load(BOLD)?,
        })
    }
}

impl Face {
    fn load(data: &'static [u8]) -> Result<Face, PdfError> {
        let font = Font::new(data.into(), 0)
            .ok_or_else(|| PdfError("the embedded font cannot be read".to_string()))?;
        let shaper = rustybuzz::Face::from_slice(data, 0)
            .ok_or_else(|| PdfError("the embedded font cannot be shaped".to_string()))?;
        Ok(Face { font, shaper })
    }

    /// The width of `text` set at `size` points.
    fn width(&self, text: &str, size: f32) -> f32 {
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        let shaped = rustybuzz::shape(&self.shaper, &[], buffer);
        let units: i64 = shaped
            .glyph_positions()
            .iter()
            .map(|position| i64::from(position.x_advance))
            .sum();
        units as f32 * size / f32::from(self.shaper.units_per_em().max(1) as u16)
    }

    /// Whether the font draws every character of `text` (no missing-glyph box).
    fn covers(&self, text: &str) -> bool {
        text.chars()
            .filter(|c| !c.is_whitespace())
            .all(|c| self.shaper.glyph_index(c).is_some())
    }

    /// `text` on one line with its invisible and control characters written as `\u{...}`
    /// (as a terminal shows them: a name from a card dataset cannot reorder or hide what the
    /// sheet prints), without the characters the font does not draw (a card whose English
    /// name the data writes in Japanese, `ナッシー[Exeggutor]`, prints `[Exeggutor]`): a
    /// missing glyph prints as an empty box, which reads as a card name no one can match.
    fn drawable<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        let text = crate::util::escape::visible_line(text);
        if self.covers(&text) {
            return text;
        }
        let kept: String = text
            .chars()
            .filter(|c| c.is_whitespace() || self.shaper.glyph_index(*c).is_some())
            .collect();
        std::borrow::Cow::Owned(kept.trim().to_string())
    }
}

/// The texts of `texts` with a character the embedded fonts do not draw (all of them if
/// the fonts cannot be read), which the sheet prints without those characters: a test runs
/// it over every English card name.
pub fn uncovered<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let fonts = Fonts::load().ok();
    texts
        .into_iter()
        .filter(|text| {
            !fonts
                .as_ref()
                .is_some_and(|fonts| fonts.regular.covers(text) && fonts.bold.covers(text))
        })
        .collect()
}

/// Black, white and the form's greys.
fn grey(lightness: u8) -> Paint {
    luma::Color::new(lightness).into()
}

const INK: u8 = 0;
const BAR: u8 = 190;
const CELL: u8 = 232;
const FAINT: u8 = 95;

fn red() -> Paint {
    rgb::Color::new(176, 0, 0).into()
}

/// A page's surface and the fonts.
struct Canvas<'a, 'f> {
    surface: Surface<'a>,
    fonts: &'f Fonts,
}

impl Canvas<'_, '_> {
    fn fill(&mut self, paint: Paint) {
        self.surface.set_stroke(None);
        self.surface.set_fill(Some(Fill {
            paint,
            ..Fill::default()
        }));
    }

    /// `text` with its baseline at `y`, starting at `x`.
    fn text(&mut self, x: f32, y: f32, bold: bool, size: f32, paint: Paint, text: &str) {
        if text.is_empty() {
            return;
        }
        self.fill(paint);
        let face = if bold {
            &self.fonts.bold
        } else {
            &self.fonts.regular
        };
        let text = face.drawable(text);
        self.surface.draw_text(
            Point::from_xy(x, y),
            face.font.clone(),
            size,
            &text,
            false,
            TextDirection::LeftToRight,
        );
    }

    fn width(&self, bold: bool, size: f32, text: &str) -> f32 {
        let face = if bold {
            &self.fonts.bold
        } else {
            &self.fonts.regular
        };
        face.width(&face.drawable(text), size)
    }

    /// The largest size from `size` down to `smallest` at which `text` fits `room`.
    fn fitting(&self, bold: bool, size: f32, smallest: f32, room: f32, text: &str) -> f32 {
        let natural = self.width(bold, size, text);
        if natural <= room || natural <= 0.0 {
            return size;
        }
        (size * room / natural).max(smallest)
    }

    /// `text` set as large as `size` allows within `room`, from `x`.
    /// Text that does not fit even at the smallest size (a player's name of a thousand
    /// letters) is cut, with `…`, rather than run over the next field.
    fn text_in(&mut self, x: f32, y: f32, room: f32, bold: bool, size: f32, text: &str) {
        let size = self.fitting(bold, size, 4.5, room, text);
        if self.width(bold, size, text) <= room {
            self.text(x, y, bold, size, grey(INK), text);
            return;
        }
        // Halve the kept length until it fits: a bounded number of measures, for a case
        // that only hostile or mistaken input reaches.
        let mut kept: Vec<char> = text.chars().collect();
        while !kept.is_empty() {
            kept.truncate(kept.len() / 2);
            let cut: String = kept.iter().collect::<String>() + "…";
            if self.width(bold, size, &cut) <= room {
                self.text(x, y, bold, size, grey(INK), &cut);
                return;
            }
        }
    }

    /// `text` centred on `centre`.
    fn centred(&mut self, centre: f32, y: f32, bold: bool, size: f32, paint: Paint, text: &str) {
        let width = self.width(bold, size, text);
        self.text(centre - width / 2.0, y, bold, size, paint, text);
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, paint: Paint) {
        let Some(rect) = Rect::from_xywh(x, y, w.max(0.1), h.max(0.1)) else {
            return;
        };
        let mut path = PathBuilder::new();
        path.push_rect(rect);
        if let Some(path) = path.finish() {
            self.fill(paint);
            self.surface.draw_path(&path);
        }
    }

    fn stroke(&mut self, points: &[(f32, f32)], width: f32, paint: Paint) {
        let mut path = PathBuilder::new();
        for (index, (x, y)) in points.iter().enumerate() {
            if index == 0 {
                path.move_to(*x, *y);
            } else {
                path.line_to(*x, *y);
            }
        }
        if let Some(path) = path.finish() {
            self.surface.set_fill(None);
            self.surface.set_stroke(Some(Stroke {
                paint,
                width,
                ..Stroke::default()
            }));
            self.surface.draw_path(&path);
            self.surface.set_stroke(None);
        }
    }

    /// The outline of a `w` × `h` rectangle whose top-left corner is at (`x`, `y`).
    fn outline(&mut self, (x, y): (f32, f32), (w, h): (f32, f32), width: f32, paint: Paint) {
        let corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)];
        self.stroke(&corners, width, paint);
    }

    /// A checkbox whose top-left corner is at (`x`, `y`), ticked with a cross.
    fn checkbox(&mut self, x: f32, y: f32, size: f32, ticked: bool) {
        self.outline((x, y), (size, size), 0.8, grey(INK));
        if ticked {
            let inset = size * 0.2;
            self.stroke(
                &[(x + inset, y + inset), (x + size - inset, y + size - inset)],
                1.4,
                grey(INK),
            );
            self.stroke(
                &[(x + size - inset, y + inset), (x + inset, y + size - inset)],
                1.4,
                grey(INK),
            );
        }
    }

    /// Greedy word wrap of `text` into lines no wider than `room`.
    fn wrap(&self, bold: bool, size: f32, room: f32, text: &str) -> Vec<String> {
        let mut lines = Vec::new();
        let mut line = String::new();
        for word in text.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if !line.is_empty() && self.width(bold, size, &candidate) > room {
                lines.push(std::mem::replace(&mut line, word.to_string()));
            } else {
                line = candidate;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }
}

/// Positions that depend on the paper.
struct Layout {
    width: f32,
    height: f32,
}

impl Layout {
    /// The left edge of the card tables.
    fn table_x(&self) -> f32 {
        self.width - MARGIN - TABLE_WIDTH
    }

    /// The width of the left column.
    fn left_width(&self) -> f32 {
        self.table_x() - GUTTER - MARGIN
    }

    fn first_page(&self, canvas: &mut Canvas<'_, '_>, sheet: &Sheet) {
        self.title(canvas, sheet, "Pokémon TCG Deck Registration Sheet");
        // Format (check one): as the official form, Standard and Expanded; any other
        // format by name.
        let y = 80.0;
        let standard = sheet.format_id.eq_ignore_ascii_case("standard");
        let expanded = sheet.format_id.eq_ignore_ascii_case("expanded");
        if standard || expanded {
            canvas.text(MARGIN, y, true, 9.5, grey(INK), "Format (check one):");
            let mut x = MARGIN + canvas.width(true, 9.5, "Format (check one):") + 8.0;
            for (label, ticked) in [("Standard", standard), ("Expanded", expanded)] {
                canvas.checkbox(x, y - 7.5, 8.0, ticked);
                canvas.text(x + 11.0, y, false, 9.5, grey(INK), label);
                x += 11.0 + canvas.width(false, 9.5, label) + 12.0;
            }
        } else {
            canvas.text(MARGIN, y, true, 9.5, grey(INK), "Format:");
            let x = MARGIN + canvas.width(true, 9.5, "Format:") + 5.0;
            canvas.text(x, y, false, 9.5, grey(INK), &sheet.format);
        }
        self.player_line(canvas, sheet);
        self.left_column(canvas, sheet);
    }

    fn title(&self, canvas: &mut Canvas<'_, '_>, sheet: &Sheet, title: &str) {
        canvas.text(MARGIN, 48.0, true, 15.0, grey(INK), title);
        let season = format!(
            "{} Play! Pokémon season · Event date: {}",
            sheet.season, sheet.event_date
        );
        canvas.text(MARGIN, 63.0, false, 9.5, grey(INK), &season);
    }

    /// Player Name, Player ID and Date of Birth on one line, each value over a line to
    /// write on.
    fn player_line(&self, canvas: &mut Canvas<'_, '_>, sheet: &Sheet) {
        let y = 104.0;
        let scale = (self.width - 2.0 * MARGIN) / 540.0;
        let birth = sheet.birth_date.map(us_date);
        let fields = [
            ("Player Name:", sheet.player.as_deref(), 0.0, 198.0),
            ("Player ID:", sheet.player_id.as_deref(), 202.0, 336.0),
            (
                "Date of Birth (MM/DD/YYYY):",
                birth.as_deref(),
                340.0,
                540.0,
            ),
        ];
        for (label, value, from, to) in fields {
            let x = MARGIN + from * scale;
            let end = MARGIN + to * scale;
            canvas.text(x, y, true, 10.0, grey(INK), label);
            let start = x + canvas.width(true, 10.0, label) + 4.0;
            canvas.stroke(&[(start, y + 2.0), (end, y + 2.0)], 0.6, grey(INK));
            if let Some(value) = value {
                canvas.text_in(start + 2.0, y - 0.5, end - start - 4.0, false, 10.0, value);
            }
        }
    }

    fn left_column(&self, canvas: &mut Canvas<'_, '_>, sheet: &Sheet) {
        let x = MARGIN;
        let room = self.left_width();
        let mut y = FIRST_TOP + 10.0;
        canvas.text(x, y, true, 10.0, grey(INK), "Age Division (check one):");
        y += 6.0;
        for division in Division::ALL {
            let label = format!(
                "{} Division ({})",
                division.label(),
                division.born(sheet.season)
            );
            canvas.checkbox(x + 2.0, y + 3.0, 7.5, sheet.division == Some(division));
            canvas.text_in(x + 13.0, y + 9.5, room - 13.0, false, 8.5, &label);
            y += 13.0;
        }
        let how = match (sheet.division, sheet.division_given) {
            (Some(_), true) => format!("{} season, as given.", sheet.season),
            (Some(_), false) => format!(
                "{} season, from the year of birth (Play! Pokémon age divisions).",
                sheet.season
            ),
            (None, _) => format!("{} season. No date of birth given: tick one.", sheet.season),
        };
        y += 6.0;
        for line in canvas.wrap(false, 7.0, room, &how) {
            canvas.text(x, y, false, 7.0, grey(FAINT), &line);
            y += 8.5;
        }

        // The deck: totals and verdict.
        y += 10.0;
        canvas.rect(x, y, room, ROW, grey(BAR));
        canvas.text(x + 4.0, y + 9.5, true, 9.0, grey(INK), "Deck");
        y += ROW + 1.0;
        for section in &sheet.sections {
            self.total_row(
                canvas,
                y,
                section_word(section.section),
                section.total,
                false,
            );
            y += ROW;
        }
        self.total_row(canvas, y, "Total Cards", sheet.total, true);
        y += ROW + 12.0;
        self.verdict(canvas, sheet, y);
        self.administration(canvas);
    }

    fn total_row(&self, canvas: &mut Canvas<'_, '_>, y: f32, label: &str, total: u64, bold: bool) {
        let room = self.left_width();
        canvas.rect(MARGIN, y, room, ROW - 1.0, grey(CELL));
        canvas.text(MARGIN + 4.0, y + 9.3, bold, 9.0, grey(INK), label);
        let count = total.to_string();
        let width = canvas.width(bold, 9.0, &count);
        canvas.text(
            MARGIN + room - 6.0 - width,
            y + 9.3,
            bold,
            9.0,
            grey(INK),
            &count,
        );
    }

    /// Valid, or a red warning with the first errors; then what the player must write in.
    fn verdict(&self, canvas: &mut Canvas<'_, '_>, sheet: &Sheet, top: f32) {
        let x = MARGIN;
        let room = self.left_width();
        let mut y = top;
        let checked = format!(
            "Checked by deckbox {} against {} on {}.",
            env!("CARGO_PKG_VERSION"),
            sheet.format,
            sheet.event_date
        );
        if sheet.verdict.valid {
            canvas.text(x, y + 9.0, true, 10.0, grey(INK), "✓ Valid deck");
            y += 14.0;
            for line in canvas.wrap(false, 7.5, room, &checked) {
                canvas.text(x, y + 7.5, false, 7.5, grey(INK), &line);
                y += 9.0;
            }
        } else {
            let mut lines: Vec<(bool, String)> = Vec::new();
            let errors = sheet.verdict.errors;
            let heading = format!(
                "NOT A VALID DECK: {errors} error{}",
                if errors == 1 { "" } else { "s" }
            );
            let body = room - 12.0;
            lines.extend(
                canvas
                    .wrap(false, 7.5, body, &checked)
                    .into_iter()
                    .map(|line| (false, line)),
            );
            for error in &sheet.verdict.quoted {
                for (index, line) in canvas
                    .wrap(false, 7.5, body - 6.0, error)
                    .into_iter()
                    .enumerate()
                {
                    let bullet = if index == 0 { "• " } else { "  " };
                    lines.push((false, format!("{bullet}{line}")));
                }
            }
            if errors > sheet.verdict.quoted.len() {
                lines.push((
                    false,
                    format!("and {} more", errors - sheet.verdict.quoted.len()),
                ));
            }
            let height = 20.0 + lines.len() as f32 * 9.0 + 4.0;
            canvas.outline((x, y), (room, height), 1.5, red());
            canvas.text(x + 6.0, y + 14.0, true, 10.0, red(), &heading);
            let mut line_y = y + 26.0;
            for (bold, line) in lines {
                canvas.text(x + 6.0, line_y, bold, 7.5, grey(INK), &line);
                line_y += 9.0;
            }
            y += height + 6.0;
        }
        let missing = sheet.missing_printing();
        if !missing.is_empty() {
            let note = format!(
                "Write in the set and collector number of {} Pokémon line{} named without them.",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" }
            );
            y += 4.0;
            for line in canvas.wrap(true, 7.5, room, &note) {
                canvas.text(x, y + 7.5, true, 7.5, red(), &line);
                y += 9.0;
            }
        }
        if sheet.remarked().next().is_some() {
            let mut note = "A card whose printing is outside the format's sets or regulation marks is legal as a reprint of the printing named in grey after it: same name and text (Play! Pokémon Tournament Rules 5.4.1.3).".to_string();
            if sheet
                .remarked()
                .any(|row| row.remark.as_deref().is_some_and(|r| r.contains('?')))
            {
                note.push_str(
                    " A '?' marks a printing whose text deckbox could not compare: check it.",
                );
            }
            y += 4.0;
            for line in canvas.wrap(false, 7.5, room, &note) {
                canvas.text(x, y + 7.5, false, 7.5, grey(INK), &line);
                y += 9.0;
            }
        }
        if let Some(language) = sheet.own_language {
            let note = format!(
                "Card names in English; the list's own names ({}) in grey.",
                language.english_name()
            );
            y += 4.0;
            for line in canvas.wrap(false, 7.5, room, &note) {
                canvas.text(x, y + 7.5, false, 7.5, grey(FAINT), &line);
                y += 9.0;
            }
        }
    }

    /// The black "administrative use only" bar and three blank rows, bottom left.
    fn administration(&self, canvas: &mut Canvas<'_, '_>) {
        let room = self.left_width();
        let top = self.height - MARGIN - 4.0 * ROW;
        canvas.rect(MARGIN, top, room, ROW, grey(INK));
        canvas.text(
            MARGIN + 4.0,
            top + 9.5,
            true,
            8.5,
            grey(255),
            "ADMINISTRATIVE USE ONLY",
        );
        for row in 1..4 {
            canvas.rect(
                MARGIN,
                top + row as f32 * ROW + 0.5,
                room,
                ROW - 1.0,
                grey(CELL),
            );
        }
    }

    fn next_page_header(&self, canvas: &mut Canvas<'_, '_>, sheet: &Sheet) {
        self.title(
            canvas,
            sheet,
            "Pokémon TCG Deck Registration Sheet (continued)",
        );
        let who = [
            sheet
                .player
                .as_deref()
                .map(|name| format!("Player Name: {name}")),
            sheet
                .player_id
                .as_deref()
                .map(|id| format!("Player ID: {id}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("   ");
        canvas.text(MARGIN, 80.0, true, 9.5, grey(INK), &who);
    }

    fn item(&self, canvas: &mut Canvas<'_, '_>, y: f32, item: &Item<'_>) {
        let x = self.table_x();
        match item {
            Item::Bar {
                section,
                total,
                continued,
            } => {
                canvas.rect(x, y, TABLE_WIDTH, ROW, grey(BAR));
                let name = if *continued {
                    format!("{} (continued)", section_word(*section))
                } else {
                    section_word(*section).to_string()
                };
                canvas.text(x + 4.0, y + 9.5, true, 9.0, grey(INK), &name);
                let total = format!("Total: {total}");
                let width = canvas.width(true, 9.0, &total);
                canvas.text(
                    x + TABLE_WIDTH - 6.0 - width,
                    y + 9.5,
                    true,
                    9.0,
                    grey(INK),
                    &total,
                );
            }
            Item::Heading => {
                canvas.rect(x, y, TABLE_WIDTH, ROW, grey(INK));
                let mut left = x;
                for (index, (width, heading)) in COLUMNS.iter().zip(HEADINGS).enumerate() {
                    if index == 1 {
                        canvas.text(left + 4.0, y + 9.5, true, 8.5, grey(255), heading);
                    } else {
                        canvas.centred(left + width / 2.0, y + 9.5, true, 8.5, grey(255), heading);
                    }
                    left += width;
                }
            }
            Item::Card(row) => self.card_row(canvas, y, Some(row)),
            Item::Blank => self.card_row(canvas, y, None),
        }
    }

    fn card_row(&self, canvas: &mut Canvas<'_, '_>, y: f32, row: Option<&Row>) {
        let mut left = self.table_x();
        let mut cells = [0.0f32; 5];
        for (index, width) in COLUMNS.iter().enumerate() {
            cells[index] = left;
            canvas.rect(left, y + 0.5, width - 1.0, ROW - 1.0, grey(CELL));
            left += width;
        }
        let Some(row) = row else {
            return;
        };
        let baseline = y + 9.6;
        canvas.centred(
            cells[0] + COLUMNS[0] / 2.0,
            baseline,
            true,
            9.0,
            grey(INK),
            &row.count.to_string(),
        );
        self.name_cell(canvas, cells[1] + 4.0, baseline, COLUMNS[1] - 8.0, row);
        let small = [
            (2, row.set.clone().unwrap_or_default()),
            (3, row.number.clone().unwrap_or_default()),
            (4, row.regulation_mark.map(String::from).unwrap_or_default()),
        ];
        for (column, text) in small {
            let room = COLUMNS[column] - 4.0;
            let size = canvas.fitting(false, 8.5, 4.5, room, &text);
            canvas.centred(
                cells[column] + COLUMNS[column] / 2.0,
                baseline,
                false,
                size,
                grey(INK),
                &text,
            );
        }
    }

    /// The English name, and after it in grey when there is room the list's own name and
    /// the row's remark (the remark first kept when both do not fit).
    fn name_cell(&self, canvas: &mut Canvas<'_, '_>, x: f32, y: f32, room: f32, row: &Row) {
        let both = match (&row.own_name, &row.remark) {
            (Some(own), Some(remark)) => Some(format!("{own} · {remark}")),
            _ => None,
        };
        let greys = [both.as_ref(), row.remark.as_ref(), row.own_name.as_ref()];
        let english = canvas.width(false, 8.5, &row.name);
        for grey_text in greys.into_iter().flatten() {
            for own_size in [7.0, 6.0, 5.0] {
                let own_width = canvas.width(false, own_size, grey_text);
                if english + 5.0 + own_width <= room {
                    canvas.text(x, y, false, 8.5, grey(INK), &row.name);
                    canvas.text(
                        x + english + 5.0,
                        y,
                        false,
                        own_size,
                        grey(FAINT),
                        grey_text,
                    );
                    return;
                }
            }
        }
        canvas.text_in(x, y, room, false, 8.5, &row.name);
    }

    /// The notes under the tables and the page number.
    fn notes(&self, canvas: &mut Canvas<'_, '_>, sheet: &Sheet, page: usize, pages: usize) {
        let x = self.table_x();
        let mut y = self.height - MARGIN - NOTES + 10.0;
        let notes = [
            "Set and collector number are required for each Pokémon. Names are the cards' English names.".to_string(),
            format!(
                "Printed by deckbox {} from {}. Page {page} of {pages}.",
                env!("CARGO_PKG_VERSION"),
                sheet.source
            ),
        ];
        for note in notes {
            for line in canvas.wrap(false, 6.5, TABLE_WIDTH, &note) {
                canvas.text(x, y, false, 6.5, grey(INK), &line);
                y += 8.0;
            }
        }
    }
}
