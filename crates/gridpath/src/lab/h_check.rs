//! Is a heuristic admissible (never more than the true cost to the goal) and consistent (never
//! more than an edge's weight plus the h at its other end), on this graph? A\* with an admissible
//! h returns a cheapest path; with a consistent one it also never expands a node twice.

use super::graph::{LabGraph, num};

/// What [`check_heuristic`] found: for each property, the first node or edge (in name order)
/// that breaks it, said in a line.
#[derive(Clone, Debug, PartialEq)]
pub struct HeuristicCheck {
    /// `None`: admissible. Else the node whose h overestimates, with its true cost.
    pub inadmissible: Option<String>,
    /// `None`: consistent. Else the edge along which h drops by more than its weight.
    pub inconsistent: Option<String>,
}

/// Checks the graph's h against the true costs to `goal` (found by Dijkstra's algorithm, done
/// here in the plainest way: a graph worked by hand is small).
pub fn check_heuristic(graph: &LabGraph, goal: usize) -> HeuristicCheck {
    let n = graph.len();
    let cost = costs_to(graph, goal);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| graph.name(a).cmp(graph.name(b)));
    let inadmissible = order.iter().find_map(|&u| {
        let truth = cost[u]?;
        (graph.h(u) > truth + 1e-9).then(|| {
            format!(
                "h({}) = {} is more than the true cost to the goal, {}",
                graph.name(u),
                num(graph.h(u)),
                num(truth)
            )
        })
    });
    let goal_h = (goal < n && graph.h(goal) > 1e-9).then(|| {
        format!(
            "h({}) = {} at the goal itself, not 0",
            graph.name(goal),
            num(graph.h(goal))
        )
    });
    let inconsistent = goal_h.or_else(|| {
        order.iter().find_map(|&u| {
            graph.neighbours(u).iter().find_map(|&(v, w)| {
                (graph.h(u) > w + graph.h(v) + 1e-9).then(|| {
                    format!(
                        "h({}) = {} > {} + h({}) = {} + {}: h drops by more than the edge",
                        graph.name(u),
                        num(graph.h(u)),
                        num(w),
                        graph.name(v),
                        num(w),
                        num(graph.h(v))
                    )
                })
            })
        })
    });
    HeuristicCheck {
        inadmissible,
        inconsistent,
    }
}

/// Every node's true cost to `goal` (Dijkstra from the goal; edges are undirected), `None` where
/// the goal cannot be reached.
pub(crate) fn costs_to(graph: &LabGraph, goal: usize) -> Vec<Option<f64>> {
    let n = graph.len();
    let mut cost: Vec<Option<f64>> = vec![None; n];
    let mut done = vec![false; n];
    if goal < n {
        cost[goal] = Some(0.0);
    }
    while let Some(u) = (0..n)
        .filter(|&u| !done[u] && cost[u].is_some())
        .min_by(|&a, &b| cost[a].unwrap_or(0.0).total_cmp(&cost[b].unwrap_or(0.0)))
    {
        done[u] = true;
        let cu = cost[u].unwrap_or(0.0);
        for &(v, w) in graph.neighbours(u) {
            if cost[v].is_none_or(|cv| cu + w < cv) {
                cost[v] = Some(cu + w);
            }
        }
    }
    cost
}
