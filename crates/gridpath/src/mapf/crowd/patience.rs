//! Patience with a jam, for a body's AI and for a gathering.

/// Patience with a jam, for a body's AI. A body that has been no nearer to where it goes for a
/// patience (a game's crowd counts how long: `bevy_gridpath`'s `BodyMotion::stalled`) gives up
/// on it (a wanderer picks somewhere else, a body in a gathering settles where it stands); and
/// again only after as long once more, since the body's count runs on across a new place to go,
/// or a patience after it next gets nearer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Patience {
    /// How long it had been no nearer when it last gave up (0: not since it last got nearer).
    gave_up: f32,
}

impl Patience {
    /// Has a body no nearer for `stalled` seconds waited `patience` since it last gave up, or
    /// since it last got nearer?
    pub fn run_out(&self, stalled: f32, patience: f32) -> bool {
        let since = if self.nearer_since(stalled) {
            0.0
        } else {
            self.gave_up
        };
        stalled > since + patience
    }

    /// It gives up, having been no nearer for `stalled` seconds: its patience starts again.
    pub fn give_up(&mut self, stalled: f32) {
        self.gave_up = stalled;
    }

    /// [`run_out`](Self::run_out), and if so [`give_up`](Self::give_up).
    pub fn gives_up(&mut self, stalled: f32, patience: f32) -> bool {
        let out = self.run_out(stalled, patience);
        if out {
            self.give_up(stalled);
        }
        out
    }

    /// Has it got nearer since it last gave up (its count of seconds started again)?
    pub fn nearer_since(&self, stalled: f32) -> bool {
        stalled < self.gave_up
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jammed_body_gives_up_once_a_patience_not_every_frame() {
        let mut p = Patience::default();
        assert!(!p.gives_up(0.5, 2.0));
        assert!(!p.gives_up(1.9, 2.0));
        assert!(p.gives_up(2.1, 2.0));
        // Still stalled a frame later: it has just given up.
        assert!(!p.gives_up(2.2, 2.0));
        assert!(p.gives_up(4.2, 2.0));
        // It got nearer (the count started again): a whole patience before the next.
        assert!(p.nearer_since(0.1));
        assert!(!p.gives_up(0.1, 2.0));
        assert!(!p.gives_up(1.9, 2.0));
        assert!(p.gives_up(2.1, 2.0));
    }
}
