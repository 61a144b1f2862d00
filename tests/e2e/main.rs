//! End-to-end tests: the real binary in a real X window, driven by real mouse and keyboard events
//! (xdotool) and checked by the pixels of screenshots (ImageMagick), as a person would.
//!
//! They need an X display with Vulkan (Xvfb with Mesa's software Vulkan will do), `xdotool` and
//! ImageMagick, so `cargo test` skips them (`#[ignore]`). `.ci/run` installs what is missing and
//! runs them under Xvfb:
//!
//! ```sh
//! xvfb-run -a -s "-screen 0 1280x800x24" cargo test --test e2e -- --ignored --test-threads=1
//! ```
//!
//! Screenshots and the app's log go to `target/e2e/<test>/`, so a failure can be looked at.

mod agents;
mod checks;
mod classes;
mod floors;
mod harness;
mod hex;
mod lab_and_mapf;
mod plugin_examples;
mod soak;
mod tactics;
