//! The αβ baseline (to be written).
