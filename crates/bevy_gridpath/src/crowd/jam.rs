//! A jam being untangled: its bodies, held while their joint plan is searched and then walked
//! through it (the state the crowd keeps; `untangle.rs` finds jams and moves them).

use crate::off_frame::Pending;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use gridpath::Point;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A jam's bodies (by entity), held while their plan is searched and then walked through it:
/// their cells at each step, and how far they are.
#[derive(Debug)]
pub(crate) struct Untangling {
    pub(super) bodies: Vec<Entity>,
    /// The jammed bodies it was searched for: backed off if it fails.
    pub(super) seeds: Vec<Entity>,
    /// The size of each of `bodies`.
    pub(super) sizes: Vec<u8>,
    /// The region's cells: closed to other bodies while the jam is searched and walked.
    pub(super) cells: Vec<Point>,
    /// When the search was queued.
    pub(super) queued: Instant,
    /// Set by the search when a thread takes it up.
    pub(super) started: Arc<AtomicBool>,
    /// The first tick the search was seen started, and when.
    pub(super) began: Option<(u64, Instant)>,
    pub(super) search: Option<Pending<Option<Vec<Vec<Point>>>>>,
    pub(super) plan: Vec<Vec<Point>>,
    pub(super) at: usize,
    pub(super) waited: u32,
}

impl Untangling {
    /// The bodies it holds, sorted.
    pub(super) fn bodies(&self) -> &[Entity] {
        &self.bodies
    }

    /// The cells of its closed region and those beside them: a body there may wait on the plan
    /// (it cannot step in, nor be pushed in), which is no deadlock.
    pub(super) fn around(&self) -> HashSet<Point> {
        let mut near: HashSet<Point> = self.cells.iter().copied().collect();
        for &c in &self.cells {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    near.insert(Point::new(c.x + dx, c.y + dy));
                }
            }
        }
        near
    }
}
