//! The crowd step's scratch, kept between steps: who stands where and takes what, and the plan's
//! log. The step's work is in the files beside it, each an `impl CrowdStep` of its own.

use super::mover::Room;
use crate::grid::Point;
use crate::mapf::random::SplitMix64;

pub(super) const NONE: u32 = u32::MAX;
pub(super) const UNPLANNED: usize = usize::MAX;

/// A crowd's PIBT: scratch space kept between steps (see the module docs).
#[derive(Clone, Debug)]
pub struct CrowdStep {
    pub(super) rng: SplitMix64,
    /// Each mover's cell and the cell it takes next, as indices (`UNPLANNED`: not yet).
    pub(super) from: Vec<usize>,
    pub(super) to: Vec<usize>,
    pub(super) size: Vec<u8>,
    pub(super) priority: Vec<f64>,
    /// Each mover's `arrived` (a body settled in a dead end need not make way) and `goal`.
    pub(super) arrived: Vec<bool>,
    pub(super) goal: Vec<Option<Point>>,
    /// Per cell, which mover stands on it now and which takes it next (`NONE`: no one), side
    /// by side: a body reads both at the cells round it, and bodies spread over a large map
    /// find these out of the cache at every step, so one line read serves both.
    pub(super) cells: Vec<[u32; 2]>,
    /// One bit per cell, set once either mark is written this step: a clear bit says both are
    /// `NONE` without reading `cells`. Most cells round a body are empty, and these bits, a
    /// sixty-fourth of `cells`, stay in the cache.
    pub(super) marked: Vec<u64>,
    pub(super) order: Vec<usize>,
    pub(super) next: Vec<Point>,
    /// The largest size this step: how far round a diagonal step to look for crossings.
    pub(super) largest: u8,
    /// Where each mover asked to make room heads to get out of the way (see [`Mover`]), and the
    /// room this step's failed pushes ask of each mover.
    pub(super) escape: Vec<Option<Point>>,
    pub(super) asked: Vec<Option<Room>>,
    /// What the plan under way changed, to undo a cell given up.
    pub(super) log: Vec<Undo>,
    /// Pushes of several bodies at once left this step: each that fails is undone and its
    /// bodies planned again, so they are rationed to keep a step's work bounded.
    pub(super) budget: usize,
}

/// One change a plan made, to undo: a cell's taker, or a mover's plan, as they were.
#[derive(Clone, Copy, Debug)]
pub(super) enum Undo {
    Taking(usize, u32),
    To(usize, usize),
}

/// The two marks on a cell, by their place in [`CrowdStep`]'s `cells`.
#[derive(Clone, Copy)]
pub(super) enum Layer {
    Standing = 0,
    Taking = 1,
}
