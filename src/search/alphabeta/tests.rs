//! αβ tests on Breakthrough.
