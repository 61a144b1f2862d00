//! What a live crowd reports of its bodies ([`CrowdStats`]).

/// How the bodies are doing. `moving + waiting + arrived + stuck == bodies`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CrowdStats {
    /// Bodies in the crowd.
    pub bodies: usize,
    /// Gliding between cells now.
    pub moving: usize,
    /// Standing, not where they go: for a route, or for others to make room.
    pub waiting: usize,
    /// Where they go.
    pub arrived: usize,
    /// No way there as the grid is now.
    pub stuck: usize,
    /// Of the moving and waiting, those no nearer for
    /// [`DEADLOCK_SECONDS`](super::DEADLOCK_SECONDS) and not in a queue that moves
    /// ([`CrowdRuntime::note_frame`](super::CrowdRuntime::note_frame)): should read 0.
    pub deadlocked: usize,
    /// Jams solved whole and walked through since the crowd began
    /// ([`UNTANGLE_AFTER`](super::UNTANGLE_AFTER)).
    pub untangled: u64,
}
