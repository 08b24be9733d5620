//! Inputs that would cost time without bound: many unknown names, decks too large to
//! simulate, queries whose exact odds would run away.
