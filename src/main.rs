use bevy::prelude::*;
use pathfinder_playground::PlaygroundPlugin;
use pathfinder_playground::app::launch::{CliError, LaunchOptions, usage};
use std::io::Write as _;

/// The command line's arguments; in a browser, the page address's `?key=value` pairs.
fn launch_args() -> Vec<String> {
    #[cfg(target_arch = "wasm32")]
    {
        let query = web_sys::window().and_then(|w| w.location().search().ok());
        pathfinder_playground::app::launch::args_from_query(&query.unwrap_or_default())
    }
    #[cfg(not(target_arch = "wasm32"))]
    std::env::args().skip(1).collect()
}

fn main() -> AppExit {
    #[cfg(target_arch = "wasm32")]
    if let Err(e) = LaunchOptions::parse(launch_args()) {
        // A page has no terminal and cannot exit: say it in the browser's console (the help
        // for `?help`), and start as if plain.
        let text = match e {
            CliError::Help => usage(),
            CliError::Bad(message) => message,
        };
        web_sys::console::warn_1(&text.into());
        return App::new().add_plugins(PlaygroundPlugin::default()).run();
    }
    let options = match LaunchOptions::parse(launch_args()) {
        Ok(options) => options,
        Err(CliError::Help) => {
            // Not `println!`, which panics when the reader has gone (`--help | head`).
            let _ = writeln!(std::io::stdout(), "{}", usage());
            return AppExit::Success;
        }
        Err(CliError::Bad(message)) => {
            eprintln!("{message}");
            return AppExit::from_code(2);
        }
    };
    App::new().add_plugins(PlaygroundPlugin { options }).run()
}
