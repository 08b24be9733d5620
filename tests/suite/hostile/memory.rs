//! Inputs that would cost memory without bound: huge or deeply repeated decks, configs,
//! format files, ignore files and card datasets. Each stays within its documented bound.
