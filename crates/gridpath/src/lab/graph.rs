//! A small graph with named nodes, as a lab exercise draws it: undirected weighted edges, and a
//! heuristic value on every node (the estimate of its cost to the goal the exercise names).

use std::fmt::{self, Write as _};

/// The most nodes a lab graph holds: a graph worked by hand stays small.
pub const MAX_NODES: usize = 26;

/// Why a text could not be read as a graph: one line, naming the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabError {
    /// The line, counted from 1 (0 for the graph as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => f.write_str(&self.message),
            line => write!(f, "line {line}: {}", self.message),
        }
    }
}

impl std::error::Error for LabError {}

/// Named nodes, each with a heuristic value, and undirected edges with non-negative weights.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabGraph {
    names: Vec<String>,
    h: Vec<f64>,
    /// Each node's neighbours with the edge's weight, kept in name order.
    adjacent: Vec<Vec<(usize, f64)>>,
}

impl LabGraph {
    /// A graph with no nodes yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads lines of `A B 4` (an edge of weight 4 between A and B, adding either node if new)
    /// and `h A 7` (A's heuristic value). Blank lines and lines from `#` on are ignored. Names
    /// are letters, digits and `_`, at most 16 of them.
    pub fn parse(text: &str) -> Result<Self, LabError> {
        let mut graph = Self::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let bad = |message: String| LabError {
                line: line_no,
                message,
            };
            let content = line.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let words: Vec<&str> = content.split_whitespace().collect();
            match words[..] {
                ["h", name, value] => {
                    let value = number(value).map_err(bad)?;
                    let node = graph.add_node(name).map_err(bad)?;
                    graph.h[node] = value;
                }
                [a, b, weight] => {
                    let weight = number(weight).map_err(bad)?;
                    let (a, b) = (graph.add_node(a), graph.add_node(b));
                    let (a, b) = (a.map_err(bad)?, b.map_err(&bad)?);
                    graph.set_edge(a, b, weight).map_err(bad)?;
                }
                [name] => {
                    graph.add_node(name).map_err(bad)?;
                }
                _ => {
                    return Err(bad(format!(
                        "expected `A B 4` (an edge) or `h A 7` (a heuristic), not `{}`",
                        shown(content)
                    )));
                }
            }
        }
        Ok(graph)
    }

    /// The node named `name`, added (with h = 0) if it is new.
    pub fn add_node(&mut self, name: &str) -> Result<usize, String> {
        if let Some(node) = self.index(name) {
            return Ok(node);
        }
        let valid = !name.is_empty()
            && name.chars().count() <= 16
            && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !valid {
            return Err(format!(
                "a node's name is 1 to 16 letters, digits or `_`, not `{}`",
                shown(name)
            ));
        }
        if self.names.len() >= MAX_NODES {
            return Err(format!("a lab graph has at most {MAX_NODES} nodes"));
        }
        self.names.push(name.to_string());
        self.h.push(0.0);
        self.adjacent.push(Vec::new());
        Ok(self.names.len() - 1)
    }

    /// Sets the edge between `a` and `b` (both ways) to `weight`.
    pub fn set_edge(&mut self, a: usize, b: usize, weight: f64) -> Result<(), String> {
        if a == b {
            return Err(format!(
                "an edge joins two nodes, not {} to itself",
                self.names[a]
            ));
        }
        if !(weight.is_finite() && weight >= 0.0) {
            return Err(format!("a weight is a number of at least 0, not {weight}"));
        }
        for (from, to) in [(a, b), (b, a)] {
            let list = &mut self.adjacent[from];
            list.retain(|&(n, _)| n != to);
            list.push((to, weight));
        }
        let names = &self.names;
        for list in [a, b] {
            self.adjacent[list].sort_by(|x, y| names[x.0].cmp(&names[y.0]));
        }
        Ok(())
    }

    /// Sets a node's heuristic value.
    pub fn set_h(&mut self, node: usize, value: f64) {
        if let Some(h) = self.h.get_mut(node) {
            *h = value;
        }
    }

    /// How many nodes.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// No nodes?
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// A node's name.
    pub fn name(&self, node: usize) -> &str {
        &self.names[node]
    }

    /// The node of this name, if there is one.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The node's heuristic value.
    pub fn h(&self, node: usize) -> f64 {
        self.h[node]
    }

    /// The node's neighbours with the edges' weights, in name order.
    pub fn neighbours(&self, node: usize) -> &[(usize, f64)] {
        &self.adjacent[node]
    }

    /// The graph as text that [`LabGraph::parse`] reads back exactly: each edge once, then each h.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for a in 0..self.len() {
            for &(b, w) in &self.adjacent[a] {
                if a < b {
                    let _ = writeln!(text, "{} {} {w}", self.names[a], self.names[b]);
                }
            }
        }
        for a in 0..self.len() {
            let _ = writeln!(text, "h {} {}", self.names[a], self.h[a]);
        }
        text
    }

    /// The adjacency as the lab writes it in Python: `{'A': {'B': 4, 'C': 2}, 'B': {...}}`.
    pub fn adjacency(&self) -> String {
        let mut text = String::from("{");
        for a in 0..self.len() {
            let edges: Vec<String> = self.adjacent[a]
                .iter()
                .map(|&(b, w)| format!("'{}': {}", self.names[b], num(w)))
                .collect();
            let comma = if a == 0 { "" } else { ", " };
            let _ = write!(text, "{comma}'{}': {{{}}}", self.names[a], edges.join(", "));
        }
        text.push('}');
        text
    }
}

/// A weight or an h: a finite number of at least 0.
fn number(word: &str) -> Result<f64, String> {
    match word.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "expected a number of at least 0, not `{}`",
            shown(word)
        )),
    }
}

/// A number as a person writes it: 4, not 4.0, and at most two decimals, 1.41 for a diagonal
/// step (weights, h and costs as the lab shows them; [`LabGraph::to_text`] keeps every digit).
pub fn num(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let two = format!("{v:.2}");
        two.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Text from the user, at most 40 characters, with control characters escaped.
fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_prints_the_labs_dictionary() {
        let graph = LabGraph::parse("A B 4\nA C 2 # the short one\n\nC B 1\nh A 3\nh B 0\n")
            .expect("a graph");
        assert_eq!(graph.len(), 3);
        assert_eq!(
            graph.adjacency(),
            "{'A': {'B': 4, 'C': 2}, 'B': {'A': 4, 'C': 1}, 'C': {'A': 2, 'B': 1}}"
        );
        assert_eq!(LabGraph::parse(&graph.to_text()), Ok(graph));
    }

    #[test]
    fn a_malformed_line_is_named_and_nothing_is_read() {
        let cases = [
            ("A B 4\nA B\n", "line 2: expected `A B 4`"),
            ("A B four", "line 1: expected a number"),
            ("A B -1", "line 1: expected a number"),
            ("h A NaN", "line 1: expected a number"),
            ("A A 1", "line 1: an edge joins two nodes"),
            ("A B! 1", "line 1: a node's name"),
            (
                "A \u{1b}[2J 1",
                "line 1: a node's name is 1 to 16 letters, digits or `_`, not `\\u{1b}[2J`",
            ),
        ];
        for (text, said) in cases {
            let error = LabGraph::parse(text).expect_err(text).to_string();
            assert!(error.starts_with(said), "{text:?} → {error}");
            assert!(!error.contains('\n'));
        }
        let many: String = (0..30).map(|i| format!("N{i} N{} 1\n", i + 1)).collect();
        let error = LabGraph::parse(&many).expect_err("too many");
        assert!(error.to_string().contains("at most 26 nodes"), "{error}");
    }
}
