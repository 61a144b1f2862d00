//! Short messages for the user: why a drop was refused, why a map did not load. The panel shows
//! the latest one; each is also logged, so it reaches stderr when there is no window.

use bevy::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Warning,
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub level: Level,
    pub text: String,
}

/// The latest notice, if any.
#[derive(Resource, Default, Debug)]
pub struct Notices {
    latest: Option<Notice>,
}

impl Notices {
    pub fn info(&mut self, text: impl Into<String>) {
        self.post(Level::Info, text.into());
    }

    pub fn warn(&mut self, text: impl Into<String>) {
        self.post(Level::Warning, text.into());
    }

    /// Something the user asked for failed (a file that did not load, say).
    pub fn error(&mut self, text: impl Into<String>) {
        self.post(Level::Error, text.into());
    }

    pub fn latest(&self) -> Option<&Notice> {
        self.latest.as_ref()
    }

    pub fn clear(&mut self) {
        self.latest = None;
    }

    fn post(&mut self, level: Level, text: String) {
        // Logged at warn at most: a refused drop or a bad file is the user's business, not a
        // fault of the app, and the soak test treats logged errors as faults.
        match level {
            Level::Info => info!("{text}"),
            Level::Warning | Level::Error => warn!("{text}"),
        }
        self.latest = Some(Notice { level, text });
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Notices>();
}
