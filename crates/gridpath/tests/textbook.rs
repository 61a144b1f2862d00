//! The textbook A* (`gridpath::textbook::astar`, one plain function) and the fast, resumable
//! `Search` are the same algorithm: on thousands of random grids, with walls and terrain costs,
//! under every movement and admissible heuristic, they return the same cost and the same path.

use gridpath::{Heuristic, Search, SearchConfig, textbook};
use proptest::prelude::*;

mod common;
use common::{arb_grid, arb_movement, endpoints};

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn the_textbook_astar_and_the_search_agree_on_cost_and_path(
        grid in arb_grid(16, true),
        movement in arb_movement(),
        heuristic in prop::sample::select(Heuristic::ALL.to_vec()),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let Some((start, goal)) = endpoints(&grid, a, b) else { return Ok(()) };
        prop_assume!(heuristic.is_admissible_for(movement));
        let config = SearchConfig { heuristic, ..SearchConfig::astar(movement) };
        let fast = Search::new().find_path(&grid, start, goal, &config).expect("valid query");
        let plain = textbook::astar(&grid, start, goal, movement, heuristic);
        match (fast.path, plain) {
            (None, None) => {}
            (Some(fast), Some(plain)) => {
                prop_assert_eq!(fast.cost, plain.cost, "cost on {:?}", grid);
                prop_assert_eq!(fast.cells, plain.cells, "path on {:?}", grid);
            }
            (fast, plain) => prop_assert!(false, "one found a path, the other did not: {:?} vs {:?}", fast, plain),
        }
    }
}
