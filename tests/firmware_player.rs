//! The firmware (`firmware/`) builds its player's configuration field by field instead of
//! parsing its spec (to keep float parsing out of its flash); this checks the two agree.

include!("../firmware/src/player.rs");

#[test]
fn firmware_player_matches_its_spec() {
    let parsed =
        imcts::search::spec::parse_mcts::<imcts::games::breakthrough::Breakthrough>(PLAYER)
            .expect("the firmware's spec parses");
    let built = player()
        .validate()
        .expect("the firmware's configuration is valid");
    assert_eq!(*built, *parsed);
}
