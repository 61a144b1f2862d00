//! PIBT: Priority Inheritance with Backtracking (Okumura, Machida, Défago and Tamura, "Priority
//! inheritance with backtracking for iterative multi-agent path finding", AIJ 2022).
//!
//! PIBT plans one step of every agent at a time, which is why a game can call it every tick while
//! goals change. Each agent has a priority: it grows by one every step the agent is away from its
//! goal and drops back to a small random tie-break once it arrives, so an agent that has waited
//! long goes first. The paper's Algorithm 1, one step:
//!
//! ```text
//! update priorities; Q_to[i] ← ⊥ for every agent i
//! for each agent i, highest priority first:
//!     if Q_to[i] = ⊥: PIBT(i, ⊥)
//!
//! PIBT(i, j):                                  -- i plans; j is the agent that pushed it, if any
//!     C ← Q_from[i] and its neighbours, nearest to i's goal first (ties at random)
//!     for v in C:
//!         if some agent already takes v, or v = Q_from[j]: next v    -- no collision, no swap
//!         Q_to[i] ← v
//!         if agent k stands on v and has not planned:                -- priority inheritance
//!             if PIBT(k, i) is invalid: next v                       -- backtracking
//!         return valid
//!     Q_to[i] ← Q_from[i]; return invalid                           -- stay, and say so
//! ```
//!
//! An agent that wants a cell where a lower agent stands lends that agent its priority: the lower
//! one must move out of the way first, and if it cannot, the higher one tries its next cell. No
//! two agents ever end on one cell, and none swap (a pushed agent may not step onto its pusher's
//! cell). On graphs where every two neighbouring cells lie on a common cycle, the agent of highest
//! priority always gets one step nearer its goal, so every agent reaches its goal in time.

use super::distances::Distances;
use super::instance::Instance;
use super::moves::{Moves, Way, for_each_neighbour, neighbours};
use super::random::SplitMix64;
use super::scatter::Scatter;
use crate::grid::{Grid, Point};

const NONE: u32 = u32::MAX;

/// PIBT's state between steps: the priorities, and scratch space kept to avoid allocating.
#[derive(Clone, Debug)]
pub struct Pibt {
    priorities: Vec<f64>,
    /// Each agent's own tie-break in [0, 1): its priority at its goal.
    tie_breaks: Vec<f64>,
    rng: SplitMix64,
    /// `Q_from` and `Q_to` as cell indices; `usize::MAX` is ⊥.
    from: Vec<usize>,
    to: Vec<usize>,
    /// Which agent stands on a cell now, and which takes it next (`NONE`: no one).
    standing: Vec<u32>,
    taking: Vec<u32>,
    /// Each agent's distance table (a slot of [`Distances`]), the goal it is for, and which
    /// tables the slots are in ([`Distances::fit`]).
    slots: Vec<usize>,
    slot_goals: Vec<usize>,
    slots_for: u64,
    order: Vec<usize>,
    /// The configuration being generated breaks a constraint.
    failed: bool,
    /// Each agent's scattered path, if LaCAM made them: it breaks ties between equally near
    /// cells (see [`Scatter`]).
    hints: Option<Scatter>,
    /// Where on its scattered path each agent was last seen.
    hint_places: Vec<u32>,
    /// Whether two agents that must pass each other in a passage back out of it together
    /// ([`Pibt::with_swap`]).
    swap: bool,
    /// How agents step: the distance tables' moves, taken at each step.
    moves: Moves,
}

impl Pibt {
    /// A planner whose random tie-breaks come from `seed`: the same seed, the same moves.
    pub fn new(seed: u64) -> Self {
        Self {
            priorities: Vec::new(),
            tie_breaks: Vec::new(),
            rng: SplitMix64(seed),
            from: Vec::new(),
            to: Vec::new(),
            standing: Vec::new(),
            taking: Vec::new(),
            slots: Vec::new(),
            slot_goals: Vec::new(),
            slots_for: 0,
            order: Vec::new(),
            failed: false,
            hints: None,
            hint_places: Vec::new(),
            swap: false,
            moves: Moves::FourWay,
        }
    }

    /// With LaCAM\*'s emulated swap (see `swap_partner`): two agents that must pass each other
    /// down a passage one cell wide back out of it together and pass at its end. A handful of
    /// agents reordering in a passage between two small rooms, which LaCAM alone took 0.7 s to
    /// plan, then takes under a millisecond. Off by default: on open maps it made no difference
    /// to lacam3 and cost ours 1.8 % of the sum of costs on random-32-32-10.
    pub fn with_swap(mut self, swap: bool) -> Self {
        self.swap = swap;
        self
    }

    /// Breaks ties by these paths from now on.
    pub(crate) fn set_hints(&mut self, hints: Scatter) {
        self.hints = Some(hints);
    }

    /// One step of every agent: from `positions` (free cells, all distinct) towards `goals`,
    /// returns each agent's next cell, the same or a 4-neighbour, with no two on one cell and
    /// no two swapping. Agents may join (more positions than last time: they are appended) or
    /// leave (fewer), and goals may change from one call to the next.
    pub fn step(
        &mut self,
        grid: &Grid,
        distances: &mut Distances,
        positions: &[usize],
        goals: &[usize],
    ) -> &[usize] {
        let agents = positions.len().min(goals.len());
        self.fit(grid, agents);
        for i in 0..agents {
            self.priorities[i] = if positions[i] == goals[i] {
                self.tie_breaks[i]
            } else {
                self.priorities[i] + 1.0
            };
        }
        let mut order: Vec<usize> = std::mem::take(&mut self.order);
        order.clear();
        order.extend(0..agents);
        let priorities = &self.priorities;
        order.sort_by(|&a, &b| priorities[b].total_cmp(&priorities[a]));
        // Without constraints a configuration always exists; should none come, all wait.
        let found = self
            .generate(
                grid,
                distances,
                &positions[..agents],
                &goals[..agents],
                &order,
                &[],
            )
            .is_some();
        if !found {
            self.to[..agents].copy_from_slice(&positions[..agents]);
        }
        self.order = order;
        &self.to[..agents]
    }

    /// The next configuration from `from`, agents planned in `order` (highest first), with the
    /// agents named in `constraints` sent where they say (LaCAM's configuration generator).
    /// `None` when the constraints cannot all hold: two agents sent to one cell, a swap, or an
    /// agent left with nowhere to go but a cell another was sent to.
    pub(crate) fn generate(
        &mut self,
        grid: &Grid,
        distances: &mut Distances,
        from: &[usize],
        goals: &[usize],
        order: &[usize],
        constraints: &[(usize, usize)],
    ) -> Option<&[usize]> {
        let agents = from.len();
        self.fit(grid, agents);
        self.moves = distances.moves();
        // Each agent's table, looked up again only when its goal or the tables changed.
        let tables = distances.fit(grid);
        if self.slots_for != tables {
            self.slots_for = tables;
            self.slot_goals.fill(usize::MAX);
        }
        for i in 0..agents {
            if self.slot_goals[i] != goals[i] {
                self.slots[i] = distances.slot(grid, goals[i]);
                self.slot_goals[i] = goals[i];
            }
            self.from[i] = from[i];
            self.to[i] = usize::MAX;
            self.standing[from[i]] = i as u32;
        }
        self.failed = false;
        for &(i, v) in constraints {
            let k = self.standing[v];
            let swap = k != NONE && self.to[k as usize] == from[i];
            if self.taking[v] != NONE || swap || self.to[i] != usize::MAX {
                self.failed = true;
                break;
            }
            self.to[i] = v;
            self.taking[v] = i as u32;
        }
        for &i in order {
            if self.failed {
                break;
            }
            if self.to[i] == usize::MAX {
                self.plan(grid, distances, i, None);
            }
        }
        // Clear only the cells this call marked.
        for i in 0..agents {
            self.standing[self.from[i]] = NONE;
            if self.to[i] != usize::MAX {
                self.taking[self.to[i]] = NONE;
            }
        }
        (!self.failed).then_some(&self.to[..agents])
    }

    /// `PIBT(i, j)` of the module docs: plans agent `i`, pushed by `pusher` if any. Returns
    /// whether `i` could go somewhere other than staying put against its will.
    ///
    /// Why one long function: it is the paper's `PIBT(i, j)`, recursion included, as one procedure:
    /// the candidates sorted, each tried, the agent on it pushed, and the way back when none works.
    /// Its parts share every array of the planner.
    fn plan(
        &mut self,
        grid: &Grid,
        distances: &Distances,
        i: usize,
        pusher: Option<usize>,
    ) -> bool {
        let here = self.from[i];
        let table = distances.table(self.slots[i]);
        // The next cell of the agent's scattered path first, if it has one; then nearest first;
        // between equals a cell no other agent stands on (no one to push); then at random. One
        // sort key each, so that sorting the cells costs a key each, not a closure per compare.
        let place = &mut self.hint_places[i];
        let hint = self.hints.as_ref().and_then(|h| h.next(i, here, place));
        let dice = self.rng.next();
        let mut keyed = [(0u64, here); 7];
        let mut n = 0;
        let mut key_of = |c: usize| {
            let taken = self.standing[c] != NONE && self.standing[c] as usize != i;
            let key = (u64::from(Some(c) != hint) << 63)
                | (u64::from(table[c]) << 31)
                | (u64::from(taken) << 30)
                | (dice.rotate_right(12 * n as u32) & 0xfff);
            keyed[n] = (key, c);
            n += 1;
        };
        key_of(here);
        for_each_neighbour(grid, self.moves, here, key_of);
        // Insertion sort, inlined: seven keys at most, and the library's sort was a call a cell.
        for k in 1..n {
            let mut j = k;
            while j > 0 && keyed[j - 1].0 > keyed[j].0 {
                keyed.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut candidates = keyed.map(|(_, c)| c);
        // Two agents that must pass each other down a passage one cell wide: this one takes
        // its worst cell first, backing out, and draws the other after it (see `swap_partner`).
        let partner = self
            .swap
            .then(|| self.swap_partner(grid, distances, i, candidates[0]))
            .flatten();
        if partner.is_some() {
            candidates[..n].reverse();
        }
        for (rank, &v) in candidates[..n].iter().enumerate() {
            if self.taking[v] != NONE || pusher.is_some_and(|j| self.from[j] == v) {
                continue;
            }
            // A swap with an agent that already planned to step onto this cell (possible only
            // when a constraint, not a push, sent it).
            let k = self.standing[v];
            if k != NONE && k as usize != i && self.to[k as usize] == here {
                continue;
            }
            self.to[i] = v;
            self.taking[v] = i as u32;
            let k = self.standing[v];
            let unplanned = k != NONE && k as usize != i && self.to[k as usize] == usize::MAX;
            if unplanned && !self.plan(grid, distances, k as usize, Some(i)) {
                continue; // k stays on v (it took it back): try the next cell
            }
            if let Some(j) = partner.filter(|&j| rank == 0 && self.to[j] == usize::MAX)
                && self.taking[here] == NONE
                && self.from[j] != v
            {
                self.to[j] = here;
                self.taking[here] = j as u32;
            }
            return true;
        }
        let taker = self.taking[here];
        if taker != NONE && pusher != Some(taker as usize) {
            // Not the pusher, which backs off and tries its next cell: an agent a constraint
            // sent here, and this one cannot leave.
            self.failed = true;
        }
        self.to[i] = here;
        self.taking[here] = i as u32;
        false
    }

    /// The agent `i` must back out for, if any: LaCAM\*'s emulated swap (Okumura, "Improving
    /// LaCAM for Scalable Eventually Optimal Multi-Agent Pathfinding", IJCAI 2023; lacam3's
    /// `is_swap_required_and_possible`). PIBT never swaps two agents, so two that must pass
    /// each other down a passage one cell wide push each other up and down it for ever:
    ///
    /// ```text
    /// j ← the agent on i's best cell
    /// if j has not planned, must get past i (swap_required(i, j)), and i, backing out,
    ///     reaches a fork (swap_possible): back out for j
    /// else for each agent k beside i:                                 -- "clear"
    ///     if k would have to get past i once i stepped onto its best cell, and i can back
    ///     out from there: back out for k
    /// ```
    ///
    /// Backing out is taking the cells in the reverse order; if the first is taken, the
    /// partner, if it has not planned, steps onto i's cell after it. At the fork they pass.
    fn swap_partner(
        &self,
        grid: &Grid,
        distances: &Distances,
        i: usize,
        best: usize,
    ) -> Option<usize> {
        let here = self.from[i];
        if best == here {
            return None;
        }
        let j = self.standing[best];
        if j != NONE
            && j as usize != i
            && self.to[j as usize] == usize::MAX
            && self.swap_required(grid, distances, i, j as usize, here, best)
            && self.swap_possible(grid, best, here)
        {
            return Some(j as usize);
        }
        neighbours(grid, self.moves, here)
            .filter(|&u| u != best)
            .map(|u| self.standing[u])
            .find(|&k| {
                k != NONE
                    && self.swap_required(grid, distances, k as usize, i, here, best)
                    && self.swap_possible(grid, best, here)
            })
            .map(|k| k as usize)
    }

    /// Must `puller`, on `puller_at`, get past `pusher`, on `pusher_at`, for the pusher to get
    /// on (lacam3's `is_swap_required`)? Follows the passage while it leads the pusher nearer
    /// its goal; if it forks first, they can pass there. Else yes if where that stops the
    /// puller would rather be behind (on the pusher's side), and the pusher ahead or home.
    fn swap_required(
        &self,
        grid: &Grid,
        distances: &Distances,
        pusher: usize,
        puller: usize,
        pusher_at: usize,
        puller_at: usize,
    ) -> bool {
        let to_go = distances.table(self.slots[pusher]);
        let theirs = distances.table(self.slots[puller]);
        let (mut behind, mut ahead) = (pusher_at, puller_at);
        while to_go[ahead] < to_go[behind] {
            match self.way_on(grid, behind, ahead) {
                Way::Fork => return false,
                Way::DeadEnd => break,
                Way::On(next) => (behind, ahead) = (ahead, next),
            }
        }
        theirs[behind] < theirs[ahead] && (to_go[behind] == 0 || to_go[ahead] < to_go[behind])
    }

    /// Can an agent on `from` back out, away from `into`, to a fork (lacam3's
    /// `is_swap_possible`)?
    fn swap_possible(&self, grid: &Grid, into: usize, from: usize) -> bool {
        let (mut behind, mut ahead) = (into, from);
        for _ in 0..grid.len() {
            if ahead == into {
                return false; // round a loop one cell wide and back
            }
            match self.way_on(grid, behind, ahead) {
                Way::Fork => return true,
                Way::DeadEnd => return false,
                Way::On(next) => (behind, ahead) = (ahead, next),
            }
        }
        false
    }

    /// The way on from `ahead`, coming from `behind`. An agent on its goal in a cell with one
    /// way in is as good as a wall: it need not make way.
    fn way_on(&self, grid: &Grid, behind: usize, ahead: usize) -> Way {
        Way::past(behind, neighbours(grid, self.moves, ahead), |u| {
            let a = self.standing[u];
            a != NONE
                && self.slot_goals[a as usize] == u
                && neighbours(grid, self.moves, u).nth(1).is_none()
        })
    }

    /// Sizes the state for `agents` agents on `grid`.
    fn fit(&mut self, grid: &Grid, agents: usize) {
        if self.standing.len() != grid.len() {
            self.standing = vec![NONE; grid.len()];
            self.taking = vec![NONE; grid.len()];
        }
        while self.priorities.len() < agents {
            let tie_break = (self.rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            self.tie_breaks.push(tie_break);
            self.priorities.push(tie_break);
        }
        self.priorities.truncate(agents);
        self.tie_breaks.truncate(agents);
        self.from.resize(agents, 0);
        self.to.resize(agents, 0);
        self.slots.resize(agents, 0);
        self.slot_goals.resize(agents, usize::MAX);
        self.hint_places.resize(agents, 0);
    }
}

/// What [`solve_with_pibt`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct PibtPlan {
    /// Every agent's cell at each time step, from the starts: `plan[t][agent]`.
    pub plan: Vec<Vec<Point>>,
    /// Whether every agent stands on its goal at the last step.
    pub solved: bool,
}

/// Runs PIBT from the starts until every agent stands on its goal, or `max_steps` steps.
pub fn solve_with_pibt(instance: &Instance, max_steps: usize, seed: u64) -> PibtPlan {
    let grid = &instance.grid;
    let index = |p: &Point| grid.index_of(*p).unwrap_or(0);
    let mut positions: Vec<usize> = instance.starts.iter().map(index).collect();
    let goals: Vec<usize> = instance.goals.iter().map(index).collect();
    let mut pibt = Pibt::new(seed);
    let mut distances = Distances::with_moves(instance.moves);
    let to_points = |cells: &[usize]| cells.iter().map(|&i| grid.point_of(i)).collect();
    let mut plan: Vec<Vec<Point>> = vec![to_points(&positions)];
    let mut solved = positions == goals;
    while !solved && plan.len() <= max_steps {
        let next = pibt.step(grid, &mut distances, &positions, &goals);
        positions.copy_from_slice(next);
        plan.push(to_points(&positions));
        solved = positions == goals;
    }
    PibtPlan { plan, solved }
}
