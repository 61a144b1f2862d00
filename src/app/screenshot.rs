//! Screenshot mode (`--screenshot out.png`): wait until the first plan is on screen, save a
//! screenshot of the window, and exit. It makes the README picture, and lets CI look at the app.

use crate::planner::Plan;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use std::path::PathBuf;
use std::time::Duration;

/// Where to save the screenshot.
#[derive(Resource, Clone, Debug)]
pub struct ScreenshotRequest {
    pub path: PathBuf,
}

/// Frames to let pass after the first plan, so the tilemap's textures and the gizmos are drawn.
const SETTLE_FRAMES: u32 = 30;
/// Give up (and exit non-zero) if no screenshot was saved by then.
const TIMEOUT: Duration = Duration::from_secs(120);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        take_screenshot.run_if(resource_exists::<ScreenshotRequest>),
    );
}

fn take_screenshot(
    request: Res<ScreenshotRequest>,
    plan: Res<Plan>,
    time: Res<Time<Real>>,
    mut settled: Local<u32>,
    mut requested: Local<bool>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    if time.elapsed() > TIMEOUT {
        error!("no screenshot after {TIMEOUT:?}; giving up");
        exit.write(AppExit::error());
        return;
    }
    if *requested || plan.count == 0 {
        return;
    }
    *settled += 1;
    if *settled < SETTLE_FRAMES {
        return;
    }
    *requested = true;
    let path = request.path.clone();
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            let saved = captured
                .image
                .clone()
                .try_into_dynamic()
                .map_err(|e| e.to_string())
                .and_then(|img| img.to_rgb8().save(&path).map_err(|e| e.to_string()));
            match saved {
                Ok(()) => {
                    info!("screenshot saved to {}", path.display());
                    exit.write(AppExit::Success);
                }
                Err(e) => {
                    error!("cannot save the screenshot to {}: {e}", path.display());
                    exit.write(AppExit::error());
                }
            }
        },
    );
}
