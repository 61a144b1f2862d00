//! Guidance: which way the traffic flows, so that agents stop meeting head-on.
//!
//! PIBT alone sends every agent down its own shortest way, and on a grid of aisles most pairs of
//! cells have many ways of the same length: agents bound in opposite directions pick the same
//! aisle, meet head-on in it, and one file has to back out. Chen et al. ("Traffic Flow
//! Optimisation for Lifelong Multi-Agent Path Finding", AAAI 2024) plan a *guide path* for each
//! agent that avoids congestion: an edge costs more the more guide paths cross it the other way
//! (*contraflow*) or crowd onto its cell, and PIBT then follows the guide path instead of the
//! shortest one. Their guided PIBT finishes up to twice the tasks of plain PIBT, at about ten
//! times its time a step.
//!
//! The traffic itself ([`crate::mapf::Traffic`]) is shared with a game's crowd, in [`crate::mapf`].

/// How agents are steered off each other's way: by guide paths ([`super::GuidePaths`]), by the
/// traffic they see ([`crate::mapf::Traffic`]), both, or neither.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guidance {
    /// What one guide path the other way adds to a step of a guide path, in steps. 0: no guide
    /// paths; agents follow their shortest way.
    pub contraflow: f32,
    /// What each guide path through a cell adds to a step onto it, in steps. Off by default:
    /// on the sorting centre at 800 agents 0.125 takes the tasks from 11,919 to 15,322, but on
    /// the warehouse at 8,000 it costs a tenth of the tasks and makes a step three times as long
    /// (long paths through busy aisles add up far beyond what the search's heuristic sees).
    pub vertex: f32,
    /// New goals' guide paths by the paper's focal search when 1 or more: among the paths at
    /// most this many times the shortest, the one with the least contraflow (see `focal.rs`).
    /// Below 1: by weighted A*, contraflow adding to a path's length as `contraflow` says (as
    /// strays' new paths always are).
    pub focal: f32,
    /// ...and at most this many steps longer than the shortest. Twice the shortest is a
    /// room's worth of detour on a small map, but on a 500-cell warehouse it lets a guide path
    /// wander a hundred steps out of its way to dodge a file: capped at 32 steps, the
    /// warehouse at 8,000 agents finished 8 % more tasks at a third less CPU a step. The
    /// search sweeps every cell within the bound before it accepts contraflow, so the slack
    /// is also its cost: at [`Guidance::SLACK`] (8) a step takes about half the CPU of 32 on
    /// the warehouse and a fifth to two fifths less on the sorting centre, for the same tasks
    /// within 3 % on the warehouse, 2 to 5 % fewer on the room map and up to 14 % fewer on the
    /// sorting centre (still more than the paper's planner): see the workspace's `docs/benchmarks/lifelong.md`.
    pub focal_slack: u32,
    /// How much searching a step spends planning new guide paths for agents that strayed off
    /// theirs, in cells expanded. (A new goal's guide path is always planned at once.)
    pub replan: u32,
    /// Strays keep their guide path until their turn to plan a new one comes, and are led back
    /// to it meanwhile (see `way_back.rs`); otherwise they drop it at once and follow their
    /// shortest way. On with focal guide paths: on the packed room map (2,500 and 3,000 agents,
    /// the three instances, seeds 0 to 5) 78,351 tasks against 72,165. Off with weighted A*'s
    /// guide paths, where it lost: 67,876 against 71,630 (why is not known).
    pub keep_path: bool,
    /// What one agent's recent step the other way costs a move, in cells of distance...
    pub flow: f32,
    /// ...at most (below half a cell, it only breaks ties between equally good moves).
    pub flow_cap: f32,
}

impl Guidance {
    /// The presets' [`Guidance::focal_slack`], in steps.
    pub const SLACK: u32 = 8;

    /// No guidance: every agent takes its own shortest way (plain PIBT).
    pub const NONE: Guidance = Guidance {
        contraflow: 0.0,
        vertex: 0.0,
        focal: 0.0,
        focal_slack: Guidance::SLACK,
        replan: 0,
        keep_path: false,
        flow: 0.0,
        flow_cap: 0.0,
    };
    /// Ties between equally short moves go the way the traffic flows.
    pub const TRAFFIC: Guidance = Guidance {
        contraflow: 0.0,
        vertex: 0.0,
        focal: 0.0,
        focal_slack: Guidance::SLACK,
        replan: 0,
        keep_path: false,
        flow: 0.1,
        flow_cap: 0.45,
    };
    /// Guide paths clear of contraflow, and ties broken by the traffic: the setting the lifelong
    /// benchmark was measured with (`docs/benchmarks/lifelong.md`).
    pub const GUIDED: Guidance = Guidance {
        contraflow: 1.0,
        vertex: 0.0,
        focal: 0.0,
        focal_slack: Guidance::SLACK,
        replan: 10_000,
        keep_path: false,
        flow: 0.1,
        flow_cap: 0.45,
    };

    /// A new goal's guide path by the paper's focal search (bound 2, its GP-R100-F2, and at
    /// most [`Guidance::SLACK`] steps longer than the shortest), ties broken by the traffic,
    /// and strays led back to their paths ([`Guidance::keep_path`]).
    /// More tasks than [`Guidance::GUIDED`] on the lifelong benchmark (5 to 8 % on the room
    /// map, the sorting centre and the warehouse at 8,000 agents; as many at 2,000), at 1.1 to 2
    /// times its CPU a step, and about plain PIBT's on the warehouse: see `docs/benchmarks/lifelong.md`'s
    /// tables. `focal_slack: 32` finishes up to 15 % more on the small maps, at up to 1.75 times
    /// the CPU there and twice on the warehouse.
    pub const FOCAL: Guidance = Guidance {
        focal: 2.0,
        keep_path: true,
        ..Guidance::GUIDED
    };

    /// Are moves' ties broken by the recent flow?
    pub fn flow_is_on(self) -> bool {
        self.flow > 0.0 && self.flow_cap > 0.0
    }

    /// Do agents follow guide paths?
    pub fn paths_are_on(self) -> bool {
        self.contraflow > 0.0
    }
}

impl Default for Guidance {
    fn default() -> Self {
        Self::GUIDED
    }
}

/// The four sides of cell `u` of a grid `width` cells wide and `len` cells in all: for each of
/// up, left, right and down (the directions of [`direction`], so the way back from a side is
/// `3 −` its direction), whether it is on the map, and its index. No division per side: the
/// guide-path searches spent a tenth of their instructions finding directions that way.
pub(crate) fn sides(width: usize, len: usize, u: usize) -> [(bool, usize, usize); 4] {
    let (x, y) = (u % width, u / width);
    [
        (y > 0, u.wrapping_sub(width), 0),
        (x > 0, u.wrapping_sub(1), 1),
        (x + 1 < width, u + 1, 2),
        (u + width < len, u + width, 3),
    ]
}
