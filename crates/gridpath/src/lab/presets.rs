//! Graphs to start from, each made to show one thing. Written as the lab's text
//! ([`LabGraph::parse`]).

use super::graph::LabGraph;

/// A graph with a start and a goal, and what it shows.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Its name in a menu.
    pub name: &'static str,
    /// The graph in the lab's text format.
    pub text: &'static str,
    /// The start node's name.
    pub start: &'static str,
    /// The goal node's name.
    pub goal: &'static str,
    /// What it teaches, in a sentence.
    pub about: &'static str,
}

impl Preset {
    /// The graph, its start and its goal.
    pub fn load(&self) -> (LabGraph, usize, usize) {
        // The presets are written in this file and parsed in its tests: they always read.
        let graph = LabGraph::parse(self.text).unwrap_or_default();
        let start = graph.index(self.start).unwrap_or(0);
        let goal = graph.index(self.goal).unwrap_or(0);
        (graph, start, goal)
    }
}

/// Four nodes: enough to run A* by hand in a minute.
pub const WARM_UP: Preset = Preset {
    name: "Warm-up",
    text: "A B 1\nA C 4\nB C 2\nB D 5\nC D 1\nh A 3\nh B 2\nh C 1\nh D 0\n",
    start: "A",
    goal: "D",
    about: "The direct edges are the long way: A* finds A, B, C, D (cost 4).",
};

/// Russell and Norvig's road map of Romania, with their straight-line distances to Bucharest.
pub const ROMANIA: Preset = Preset {
    name: "Romania",
    text: "Arad Zerind 75\nArad Sibiu 140\nArad Timisoara 118\nZerind Oradea 71\n\
           Oradea Sibiu 151\nTimisoara Lugoj 111\nLugoj Mehadia 70\nMehadia Drobeta 75\n\
           Drobeta Craiova 120\nCraiova Rimnicu_Vilcea 146\nCraiova Pitesti 138\n\
           Sibiu Fagaras 99\nSibiu Rimnicu_Vilcea 80\nRimnicu_Vilcea Pitesti 97\n\
           Fagaras Bucharest 211\nPitesti Bucharest 101\nBucharest Giurgiu 90\n\
           Bucharest Urziceni 85\nUrziceni Hirsova 98\nHirsova Eforie 86\nUrziceni Vaslui 142\n\
           Vaslui Iasi 92\nIasi Neamt 87\n\
           h Arad 366\nh Bucharest 0\nh Craiova 160\nh Drobeta 242\nh Eforie 161\n\
           h Fagaras 176\nh Giurgiu 77\nh Hirsova 151\nh Iasi 226\nh Lugoj 244\nh Mehadia 241\n\
           h Neamt 234\nh Oradea 380\nh Pitesti 100\nh Rimnicu_Vilcea 193\nh Sibiu 253\n\
           h Timisoara 329\nh Urziceni 80\nh Vaslui 199\nh Zerind 374\n",
    start: "Arad",
    goal: "Bucharest",
    about: "A* reaches Bucharest through Fagaras (450) first, but stops only when it expands it: \
            by then Pitesti has lowered it to 418.",
};

/// Greedy best-first follows h alone, into a costly last edge.
pub const GREEDY_TRAP: Preset = Preset {
    name: "Greedy's trap",
    text: "S A 1\nA G 10\nS B 2\nB C 2\nC G 2\nh S 2\nh A 1\nh B 4\nh C 2\nh G 0\n",
    start: "S",
    goal: "G",
    about: "A looks nearest, so greedy goes S, A, G (11); A* weighs g too: S, B, C, G (6).",
};

/// Equal weights and h everywhere: the tie rule decides every step.
pub const TIES: Preset = Preset {
    name: "Ties",
    text: "A B 1\nA C 1\nB D 1\nC D 1\nB E 1\nC E 1\nD F 1\nE F 1\n\
           h A 0\nh B 0\nh C 0\nh D 0\nh E 0\nh F 0\n",
    start: "A",
    goal: "F",
    about: "Every open node has the same f: names decide (or, by hand, any of them is right).",
};

/// An h that overestimates: A* trusts it and returns a costlier path.
pub const INADMISSIBLE: Preset = Preset {
    name: "Inadmissible h",
    text: "S A 1\nA G 4\nS B 1\nB G 1\nh S 2\nh A 1\nh B 10\nh G 0\n",
    start: "S",
    goal: "G",
    about: "h(B) = 10 but B is 1 from G: A* never opens the way through B before it expands G \
            at 5, and the cheapest path costs 2.",
};

/// Every preset, in the order a lab takes them.
pub const ALL: [Preset; 5] = [WARM_UP, ROMANIA, GREEDY_TRAP, TIES, INADMISSIBLE];
