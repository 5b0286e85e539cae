/// The player, as the papers label it; [`player`] builds its configuration.
const PLAYER: &str = "mcts(ipp,im0.4)";

/// The configuration `spec::parse_mcts` gives [`PLAYER`] (informed playouts, implicit minimax
/// with α = 0.4), set field by field: parsing `0.4` would link `f32::from_str` and its tables,
/// about 15 KiB of flash.
fn player() -> imcts::search::config::MctsConfig<imcts::games::breakthrough::Breakthrough> {
    use imcts::search::config::{MctsConfig, PlayoutPolicy, ValueMode};
    let mut c = MctsConfig::default();
    c.playout.policy = PlayoutPolicy::Informed;
    c.value_mode = ValueMode::Implicit;
    c.alpha = 0.4;
    c
}
