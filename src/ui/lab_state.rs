//! The graph lab's state: the graph as text and as read, the search being stepped, a learner's
//! hand-run and the drawing's edits. The lab's window (`graph_lab.rs`), its mouse editing
//! (`lab_edit.rs`) and its by-hand panel (`lab_by_hand.rs`) all read and change it; it names
//! none of them.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_egui::egui;
use gridpath::lab::{
    ByHand, LabAlgorithm, LabGraph, LabSearch, LabStep, Question, TiePolicy, Verdict,
    num as number, presets, redraw,
};

/// The lab's state: the graph as text and as read, the search being stepped.
#[derive(Resource)]
pub struct GraphLab {
    /// The window is shown.
    pub open: bool,
    /// The text being edited; read into the graph by "Apply".
    pub text: String,
    /// Why the text last failed to read (the graph stayed as it was).
    pub error: Option<String>,
    pub algorithm: LabAlgorithm,
    pub start: usize,
    pub goal: usize,
    pub search: LabSearch,
    /// The learner's hand-run, when working by hand.
    pub hand: Option<HandRun>,
    pub policy: TiePolicy,
    /// How many times "another graph" was asked for: the next redraw's seed.
    pub redraws: u64,
    /// "The markers' region" was clicked: `lab_from_map` loads it next frame.
    pub wants_region: bool,
    /// Draw the markers' region on the map as a graph.
    pub show_on_map: bool,
    /// The drawing's mouse editing: nodes placed by hand, the selection.
    pub edits: LabEdits,
}

/// A hand-run in progress: the grader, its last verdict, the g being typed.
pub struct HandRun {
    pub run: ByHand,
    pub verdict: Option<Verdict>,
    pub g_text: String,
}

impl Default for GraphLab {
    fn default() -> Self {
        let mut lab = Self {
            open: false,
            text: String::new(),
            error: None,
            algorithm: LabAlgorithm::AStar,
            start: 0,
            goal: 0,
            search: LabSearch::new(LabGraph::new(), LabAlgorithm::AStar, 0, 0),
            hand: None,
            policy: TiePolicy::Alphabetical,
            redraws: 0,
            wants_region: false,
            show_on_map: false,
            edits: LabEdits::default(),
        };
        lab.load(&presets::ROMANIA);
        lab
    }
}

impl GraphLab {
    /// Loads a preset: its graph, start and goal, and a fresh search.
    pub fn load(&mut self, preset: &presets::Preset) {
        let (graph, start, goal) = preset.load();
        self.load_graph(graph, start, goal);
    }

    /// Loads a graph with its start and goal, and a fresh search.
    pub fn load_graph(&mut self, graph: LabGraph, start: usize, goal: usize) {
        self.text = graph.to_text();
        self.error = None;
        (self.start, self.goal) = (start, goal);
        self.restart(graph);
    }

    /// Reads the text; on a bad line, says which and keeps the graph as it was.
    pub fn apply_text(&mut self) {
        match LabGraph::parse(&self.text) {
            Ok(graph) if graph.is_empty() => self.error = Some("the graph has no node".into()),
            Ok(graph) => {
                self.error = None;
                let keep = |old: usize, graph: &LabGraph| {
                    let name = self.search.graph().name(old);
                    graph.index(name).unwrap_or(0)
                };
                let known = self.start < self.search.graph().len();
                if known {
                    (self.start, self.goal) = (keep(self.start, &graph), keep(self.goal, &graph));
                }
                self.restart(graph);
            }
            Err(error) => self.error = Some(error.to_string()),
        }
    }

    /// Replaces the graph with an edited one, through its text, as "Apply" does.
    pub fn edit(&mut self, graph: LabGraph) {
        self.text = graph.to_text();
        self.apply_text();
    }

    /// A fresh search of `graph` with the lab's algorithm, start and goal (and a fresh hand-run,
    /// when working by hand).
    pub fn restart(&mut self, graph: LabGraph) {
        self.search = LabSearch::new(graph, self.algorithm, self.start, self.goal);
        if self.hand.is_some() {
            self.work_by_hand(true);
        }
    }

    /// Starts (or ends) working the search by hand, from its start.
    pub fn work_by_hand(&mut self, on: bool) {
        self.hand = None;
        let graph = self.search.graph().clone();
        self.search = LabSearch::new(graph, self.algorithm, self.start, self.goal);
        if on {
            self.hand = Some(HandRun {
                run: ByHand::new(self.search.clone(), self.policy),
                verdict: None,
                g_text: String::new(),
            });
        }
    }

    /// The same graph with new weights and a sound h ("another graph").
    pub fn another_graph(&mut self) {
        self.redraws += 1;
        let graph = redraw(self.search.graph(), self.goal, self.redraws);
        self.text = graph.to_text();
        self.error = None;
        self.restart(graph);
    }

    /// Records a verdict, and shows the learner's run in the drawing and the trace once an
    /// expansion's neighbours are all answered (showing it sooner would give the answers away).
    pub fn judged(&mut self, verdict: Verdict) {
        if let Some(hand) = &mut self.hand {
            if !matches!(hand.run.question(), Question::Neighbour { .. }) {
                self.search = hand.run.search().clone();
            }
            hand.verdict = Some(verdict);
            hand.g_text.clear();
        }
    }

    /// The trace's last row, as the window writes it (the end-to-end test reads it).
    pub fn last_row(&self) -> Option<String> {
        self.search
            .steps()
            .last()
            .map(|s| row_text(&self.search, s).join(" | "))
    }
}

/// What is selected in the drawing.
#[derive(Clone, Debug, PartialEq)]
pub enum Selected {
    Node(String),
    Edge(String, String),
}

/// The drawing's state between frames.
#[derive(Clone, Debug, Default)]
pub struct LabEdits {
    /// Where the learner put nodes, by name, as fractions of the drawing (0 to 1 across, down).
    pub placed: HashMap<String, egui::Vec2>,
    pub selected: Option<Selected>,
    /// The node a right-button drag started from (an edge being drawn).
    pub linking: Option<usize>,
    /// The node being moved.
    pub moving: Option<usize>,
}

/// A trace row's cells, as written in the table.
pub(super) fn row_text(search: &LabSearch, step: &LabStep) -> [String; 5] {
    let graph = search.graph();
    let name = |n: usize| graph.name(n).to_string();
    let expanded = format!(
        "{} (g {}){}",
        name(step.expanded),
        number(step.g),
        if step.goal { ": the goal, stop" } else { "" }
    );
    let changes: Vec<String> = step
        .changes
        .iter()
        .map(|c| c.describe(graph, step.g))
        .collect();
    let open: Vec<String> = step
        .open
        .iter()
        .map(|e| {
            format!(
                "{} ({}, {}, {})",
                name(e.node),
                number(e.g),
                number(e.h),
                number(e.f)
            )
        })
        .collect();
    let closed: Vec<String> = step.closed.iter().map(|&n| name(n)).collect();
    [
        step.number.to_string(),
        expanded,
        changes.join("\n"),
        open.join(", "),
        closed.join(", "),
    ]
}
