//! The "Search" section: which algorithm, heuristic, weight, moves and goal rule the planner
//! uses, how often it re-plans, and the last plan's numbers. A change re-plans at once.

use super::widgets::{AMBER, PanelWidgets, RED, section};
use crate::input::pointer::PointerWorld;
use crate::planner::straighten::Straightened;
use crate::planner::{INTERVAL_RANGE, Optimality, Plan, PlanStatus, PlannerSettings, ReplanNow};
use crate::world::layout::MapLayout;
use crate::world::markers::{Goal, MarkerCell};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use gridpath::{Algorithm, CornerRule, GoalMode, Heuristic, Movement, SearchConfig};

#[derive(SystemParam)]
pub(super) struct SearchSection<'w, 's> {
    settings: ResMut<'w, PlannerSettings>,
    plan: Res<'w, Plan>,
    straightened: Res<'w, Straightened>,
    replan: MessageWriter<'w, ReplanNow>,
    pointer: Res<'w, PointerWorld>,
    layout: Option<Res<'w, MapLayout>>,
    goal: Query<'w, 's, &'static MarkerCell, With<Goal>>,
}

impl SearchSection<'_, '_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        section("Search", false).default_open(true).show(ui, |ui| {
            let mut settings = self.settings.clone();
            search_settings(ui, &mut settings.search);
            ui.add(
                egui::Slider::new(&mut settings.interval, INTERVAL_RANGE)
                    .logarithmic(true)
                    .suffix(" s")
                    .text("re-plan every"),
            );
            let straighten = ui
                .checkbox(&mut settings.straighten, "Straighten the path")
                .on_hover_text(
                    "Pull the grid path tight with line of sight: keep only the cells where \
                         it must turn, joined by straight segments (drawn in white). What \
                         PathFinding.js calls smoothenPath; Theta* does it during the search.",
                );
            widgets.note("straighten", &straighten);
            let replan = ui.button("Re-plan now");
            widgets.note("replan_now", &replan);
            if replan.clicked() {
                self.replan.write(ReplanNow);
            }
            if settings != *self.settings {
                *self.settings = settings;
            }
        });
        self.pointer_line(ui);
        ui.strong("Last plan");
        plan_status(ui, &self.plan);
        straightened_line(ui, &self.straightened);
    }
}

impl SearchSection<'_, '_> {
    /// The cell under the pointer and what the heuristic says of it: on hexagons, its axial
    /// coordinates and its hex distance to the goal, the number a student checks by counting.
    /// Always two lines, one row each (truncated, never wrapped), so that the panel below does
    /// not jump as the pointer moves on and off the map.
    fn pointer_line(&self, ui: &mut egui::Ui) {
        let search = &self.settings.search;
        let hex = search.movement.hex();
        let on_map = match (self.layout.as_ref(), self.pointer.0, self.goal.single()) {
            (Some(layout), Some(world), Ok(goal)) => {
                Some((layout.cell_at(world), goal.0)).filter(|(c, _)| layout.contains(*c))
            }
            _ => None,
        };
        let (first, second) = match (on_map, hex) {
            (Some((cell, goal)), Some(hex)) => {
                let (q, r) = hex.to_axial(cell);
                let d = hex.distance(cell, goal);
                (
                    format!("Pointer: {cell}, axial ({q}, {r})"),
                    format!("{d} hexagons from the goal (hex distance)"),
                )
            }
            (Some((cell, goal)), None) => {
                let h = search.heuristic.between(search.movement, cell, goal);
                let name = search.heuristic.name();
                (
                    format!("Pointer: {cell}"),
                    format!("h = {h:.2} to the goal ({name})"),
                )
            }
            (None, Some(_)) => (
                "Pointer: off the map".to_string(),
                "(on a cell: its hex distance to the goal)".to_string(),
            ),
            (None, None) => (
                "Pointer: off the map".to_string(),
                "(on a cell: its h to the goal)".to_string(),
            ),
        };
        for line in [first, second] {
            let label = ui.add(egui::Label::new(line).truncate());
            if hex.is_some() {
                label.on_hover_text(HEX_DISTANCE_ABOUT);
            }
        }
    }
}

const HEX_DISTANCE_ABOUT: &str = "On hexagons, give each cell cube coordinates q, r and \
     s = −q − r: a step to any of the six neighbours changes two of them by one. So the fewest \
     steps between two cells (with no walls) is max(|Δq|, |Δr|, |Δs|), the hex distance, which \
     A* uses as its heuristic: exact on open ground, never too much. (Red Blob Games, \
     \"Hexagonal Grids\".)";

const WEIGHT_ABOUT: &str =
    "The heuristic is multiplied by w: fewer cells expanded, cost at most w × optimal.";

fn search_settings(ui: &mut egui::Ui, search: &mut SearchConfig) {
    egui::Grid::new("search_settings")
        .num_columns(2)
        .show(ui, |ui| {
            algorithm_rows(ui, search);
            movement_rows(ui, search);
            ui.label("Blocked goal");
            drop_down(
                ui,
                "goal_mode",
                &mut search.goal_mode,
                &[GoalMode::MustBeFree, GoalMode::ClosestReachable],
                goal_mode_name,
                goal_mode_about,
            );
            ui.end_row();
        });
    if search.algorithm.uses_heuristic()
        && !search.algorithm.is_any_angle()
        && !search.heuristic.is_admissible_for(search.movement)
    {
        ui.colored_label(
            AMBER,
            "This heuristic overestimates with diagonals: A* may not find the cheapest path.",
        );
    }
}

/// The algorithm, its heuristic (greyed out when it uses none) and its weight (weighted A*).
fn algorithm_rows(ui: &mut egui::Ui, search: &mut SearchConfig) {
    ui.label("Algorithm");
    drop_down(
        ui,
        "algorithm",
        &mut search.algorithm,
        &Algorithm::ALL,
        Algorithm::name,
        Algorithm::description,
    );
    ui.end_row();

    ui.label("Heuristic");
    // Theta* always measures the straight line: see `gridpath::algorithms::theta_star`.
    let own_heuristic = search.algorithm.uses_heuristic() && !search.algorithm.is_any_angle();
    // On hexagons, the heuristics that measure them (the hex distance first).
    let heuristics: &[Heuristic] = if search.movement.hex().is_some() {
        &Heuristic::HEX
    } else {
        &Heuristic::ALL
    };
    ui.add_enabled_ui(own_heuristic, |ui| {
        drop_down(
            ui,
            "heuristic",
            &mut search.heuristic,
            heuristics,
            Heuristic::name,
            Heuristic::description,
        );
    });
    ui.end_row();

    if search.algorithm.uses_weight() {
        ui.label("Weight");
        ui.add(egui::Slider::new(&mut search.weight, 1.0..=5.0).max_decimals(2))
            .on_hover_text(WEIGHT_ABOUT);
        ui.end_row();
    }
}

/// 4-way or 8-way moves, and for 8-way the corner rule. On a hex map the moves are the map's.
fn movement_rows(ui: &mut egui::Ui, search: &mut SearchConfig) {
    let before = search.movement;
    ui.label("Moves");
    if search.movement.hex().is_some() {
        ui.label("6 hexagons")
            .on_hover_text("Each hexagon touches six others, all one step away (cost 1).");
        ui.end_row();
        return;
    }
    ui.horizontal(|ui| {
        let eight = matches!(search.movement, Movement::EightWay(_));
        if ui
            .selectable_label(!eight, "4-way")
            .on_hover_text("North, east, south and west only.")
            .clicked()
        {
            search.movement = Movement::FourWay;
        }
        if ui
            .selectable_label(eight, "8-way")
            .on_hover_text("Adds diagonal moves, costing √2.")
            .clicked()
            && !eight
        {
            search.movement = Movement::EightWay(CornerRule::NeverCut);
        }
    });
    ui.end_row();
    if let Movement::EightWay(rule) = &mut search.movement {
        ui.label("Corners");
        drop_down(
            ui,
            "corners",
            rule,
            &CornerRule::ALL,
            CornerRule::label,
            corner_rule_about,
        );
        ui.end_row();
    }
    // Keep the best heuristic if it was in use; a chosen one (even an inadmissible one, a
    // lesson in itself) stays.
    if search.movement != before && search.heuristic == Heuristic::best_for(before) {
        search.heuristic = Heuristic::best_for(search.movement);
    }
}

/// A drop-down of `options`: each shows `name`, and `about` explains it on hover.
fn drop_down<T: Copy + PartialEq>(
    ui: &mut egui::Ui,
    id: &str,
    value: &mut T,
    options: &[T],
    name: fn(T) -> &'static str,
    about: fn(T) -> &'static str,
) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(name(*value))
        .width(170.0)
        .show_ui(ui, |ui| {
            for &option in options {
                ui.selectable_value(value, option, name(option))
                    .on_hover_text(about(option));
            }
        })
        .response
        .on_hover_text(about(*value));
}

fn corner_rule_about(rule: CornerRule) -> &'static str {
    match rule {
        CornerRule::NeverCut => {
            "A diagonal needs both side cells free: no clipping walls (the Moving AI rule)."
        }
        CornerRule::CutOneCorner => {
            "A diagonal may pass one blocked side cell, but never squeeze between two walls."
        }
        CornerRule::CutAlways => "A diagonal may slip between two walls that touch corners.",
    }
}

fn goal_mode_name(mode: GoalMode) -> &'static str {
    match mode {
        GoalMode::MustBeFree => "goal must be free",
        GoalMode::ClosestReachable => "closest reachable",
    }
}

fn goal_mode_about(mode: GoalMode) -> &'static str {
    match mode {
        GoalMode::MustBeFree => "An unreachable goal gives no path.",
        GoalMode::ClosestReachable => {
            "An unreachable goal gives a path to the reachable cell nearest it."
        }
    }
}

fn plan_status(ui: &mut egui::Ui, plan: &Plan) {
    match &plan.status {
        PlanStatus::Pending => {
            ui.label("Planning...");
        }
        PlanStatus::Found => plan_numbers(ui, plan),
        PlanStatus::Partial => {
            ui.colored_label(
                AMBER,
                "Goal unreachable: path to the nearest reachable cell.",
            );
            plan_numbers(ui, plan);
        }
        PlanStatus::NoPath => {
            ui.colored_label(RED, "No path: the goal cannot be reached");
            if plan.expanded == 0 {
                // gridpath labels the map's regions, so an unreachable goal costs no search.
                ui.label(format!(
                    "The goal is outside the start's region: known from the map's regions \
                     in {:.0} µs, without expanding a cell",
                    plan.micros
                ));
            } else {
                ui.label(format!(
                    "Expanded {} nodes in {:.0} µs",
                    plan.expanded, plan.micros
                ));
            }
        }
        PlanStatus::Refused(why) => {
            ui.colored_label(RED, format!("No plan: {why}"));
        }
    }
}

fn plan_numbers(ui: &mut egui::Ui, plan: &Plan) {
    egui::Grid::new("plan_numbers")
        .num_columns(2)
        .show(ui, |ui| {
            let mut row = |name: &str, value: String| {
                ui.label(name);
                ui.label(value);
                ui.end_row();
            };
            row("Algorithm", plan.algorithm.name().to_string());
            let unit = if plan.algorithm.is_any_angle() {
                "corners"
            } else {
                "cells"
            };
            row("Length", format!("{} {unit}", plan.path.len()));
            row("Cost", format!("{:.2}", plan.cost));
            ui.label("Expanded");
            match plan.fresh_astar {
                Some(fresh) => ui
                    .label(format!("{} nodes (fresh A*: {fresh})", plan.expanded))
                    .on_hover_text(
                        "D* Lite repaired its last plan: only the cells whose cost to the goal \
                         the change made wrong were expanded again (tinted on the map). A fresh \
                         A* would expand the number in brackets.",
                    ),
                None => ui.label(format!("{} nodes", plan.expanded)),
            };
            ui.end_row();
            ui.label("Time");
            let time = if plan.micros > 0.0 {
                super::widgets::duration(plan.micros)
            } else {
                // A browser's clock ticks in steps of 0.1 ms or coarser.
                "under 0.1 ms".to_owned()
            };
            if plan.off_frame {
                ui.label(format!("{time}, off the frame"))
                    .on_hover_text(format!(
                        "Big maps are searched on a worker thread, so a frame never waits for a \
                     search; the previous path stays on screen until the new one is back. \
                     Results discarded because an edit touched their path: {}.",
                        plan.discarded
                    ));
            } else {
                ui.label(time);
            }
            ui.end_row();
            if let Some(table) = plan.table {
                ui.label("Jump table");
                ui.label(super::widgets::table_work(&table))
                    .on_hover_text(format!(
                        "JPS+'s precomputed distances: {table}. Edits repair only the rows, \
                     columns and diagonals they touch."
                    ));
                ui.end_row();
            }
            ui.label("Optimal");
            match plan.optimality {
                Optimality::Guaranteed => ui.label("yes (guaranteed)"),
                Optimality::Confirmed => ui.label("yes (same cost as Dijkstra)"),
                Optimality::Worse { optimal } => {
                    ui.colored_label(AMBER, format!("no: Dijkstra finds {optimal:.2}"))
                }
                Optimality::AnyAngle { grid_optimal } => ui
                    .label(format!(
                        "any angle: {:.1} % under the grid's {grid_optimal:.2}",
                        percent_shorter(plan.cost, grid_optimal)
                    ))
                    .on_hover_text(
                        "Theta* is not held to the grid's optimum: its straight segments are \
                         shorter than any path of grid moves. Not always the shortest possible \
                         any-angle path, but never longer than the grid's.",
                    ),
                Optimality::Unknown => ui.label("-"),
            };
            ui.end_row();
        });
}

/// How much shorter `length` is than `reference`, in percent.
fn percent_shorter(length: f64, reference: f64) -> f64 {
    100.0 * (1.0 - length / reference.max(f64::MIN_POSITIVE))
}

/// The straightened path's length beside the grid path's, or why there is none.
fn straightened_line(ui: &mut egui::Ui, straightened: &Straightened) {
    if let Some(why) = straightened.refused {
        ui.add(
            egui::Label::new(egui::RichText::new(format!("Not straightened: {why}.")).color(AMBER))
                .wrap(),
        );
    } else if straightened.corners.len() >= 2 {
        ui.add(
            egui::Label::new(format!(
                "Straightened (white): {} corners, {:.2} cells long, {:.1} % under the grid \
                 path's {:.2}.",
                straightened.corners.len(),
                straightened.length,
                percent_shorter(straightened.length, straightened.grid_length),
                straightened.grid_length
            ))
            .wrap(),
        );
    }
}
