//! A multi-agent plan as the app holds it: the one on screen, checked on the map it is shown on,
//! the moves that map allows, and a file a panel asked for, read as text.

use crate::world::nav::NavGrid;
use bevy::prelude::*;
use bevy_gridpath::CellShape;
use gridpath::Point;
use gridpath::mapf::{Moves, PlanCheck, PlanError, check_plan_with_moves};

/// The plan on screen, if any.
#[derive(Resource, Default)]
pub struct ShownPlan(pub Option<MapfPlan>);

/// A plan that passed the validator on the map on screen.
#[derive(Clone, Debug)]
pub struct MapfPlan {
    /// What it is, for the panel: "LaCAM: 400 random agents".
    pub title: String,
    pub starts: Vec<Point>,
    pub goals: Vec<Point>,
    /// `plan[t][agent]`, the starts at t = 0.
    pub plan: Vec<Vec<Point>>,
    /// Its costs and their lower bounds, as the validator counts them (not as a file claims).
    pub costs: PlanCheck,
    /// The solver's time to the plan, in milliseconds, when known.
    pub comp_time: Option<f64>,
    /// The solver's name, as the result format writes it.
    pub solver: String,
    /// How its agents step: 4-way, or to a hexagon's six neighbours.
    pub moves: Moves,
    /// The solver proved that no plan is cheaper (LaCAM\* tried every cheaper way, or every
    /// agent arrives as soon as its distance allows).
    pub optimal: bool,
}

impl MapfPlan {
    /// Checks `plan` on `grid` and keeps it with its costs; the validator's reason otherwise.
    pub fn checked(
        grid: &gridpath::Grid,
        moves: Moves,
        starts: Vec<Point>,
        goals: Vec<Point>,
        plan: Vec<Vec<Point>>,
    ) -> Result<Self, PlanError> {
        let costs = check_plan_with_moves(grid, moves, &starts, &goals, &plan)?;
        Ok(Self {
            title: String::new(),
            starts,
            goals,
            plan,
            costs,
            comp_time: None,
            solver: String::new(),
            moves,
            optimal: false,
        })
    }

    /// The last time step.
    pub fn last_step(&self) -> usize {
        self.plan.len().saturating_sub(1)
    }

    pub fn agents(&self) -> usize {
        self.starts.len()
    }

    /// Where `agent` is at time `t` (in steps, fractions between): between the cell of one step
    /// and the next, and how far along, eased so that each step starts and ends at rest. (The
    /// caller goes between the two cells' centres in the world: on a hex map, a straight line
    /// between cell coordinates is not one between the hexagons.)
    pub fn leg(&self, agent: usize, t: f32) -> (Point, Point, f32) {
        let t = t.clamp(0.0, self.last_step() as f32);
        let step = (t.floor() as usize).min(self.last_step());
        let next = (step + 1).min(self.last_step());
        let f = t - step as f32;
        let eased = f * f * (3.0 - 2.0 * f);
        (self.plan[step][agent], self.plan[next][agent], eased)
    }

    /// The one-line summary of its figures.
    pub fn figures(&self) -> String {
        let c = &self.costs;
        let time = self
            .comp_time
            .map_or(String::new(), |ms| format!(", {ms:.0} ms"));
        let optimal = if self.optimal { ", proven optimal" } else { "" };
        format!(
            "{} agents: soc {} (lower bound {}), makespan {} ({}){time}{optimal}",
            self.agents(),
            c.soc,
            c.soc_lb,
            c.makespan,
            c.makespan_lb
        )
    }

    /// Whether any cell the plan visits is a wall now.
    pub(super) fn crosses_a_wall(&self, nav: &NavGrid) -> bool {
        self.plan.iter().flatten().any(|&p| !nav.is_passable(p))
    }
}

/// A file a panel asked for, read as text of at most `limit` bytes: its name, and its text or why
/// not in one line. A web page has no paths to read: its files come through its picker.
pub(super) fn read_asked(path: &std::path::Path, limit: u64) -> (String, Result<String, String>) {
    #[cfg(not(target_arch = "wasm32"))]
    let text = gridpath::movingai::read_text_file(path, limit).map_err(|e| e.to_string());
    #[cfg(target_arch = "wasm32")]
    let text = {
        let _ = limit;
        Err("a web page opens files with its file picker".to_string())
    };
    (crate::world::map_files::file_name(path), text)
}

/// How agents step on the map `nav` lays out: to a hexagon's six neighbours on a hex map, 4-way
/// on squares and diamonds. Refused on a staggered map, whose 4-way moves by cell are not its
/// moves (the core plans those on [`gridpath::staggered::square_grid`]).
pub fn moves_on(nav: &NavGrid) -> Result<Moves, &'static str> {
    match nav.layout().shape {
        CellShape::Square | CellShape::Diamond => Ok(Moves::FourWay),
        CellShape::Hex(layout) => Ok(Moves::Hex(layout)),
        CellShape::Staggered => Err("this map's cells are staggered diamonds."),
    }
}
