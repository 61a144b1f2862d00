use bevy::prelude::*;
use pathfinder_playground::PlaygroundPlugin;
use pathfinder_playground::app::launch::{CliError, LaunchOptions, USAGE};

fn main() -> AppExit {
    let options = match LaunchOptions::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(CliError::Help) => {
            println!("{USAGE}");
            return AppExit::Success;
        }
        Err(CliError::Bad(message)) => {
            eprintln!("{message}\n\n{USAGE}");
            return AppExit::from_code(2);
        }
    };
    App::new().add_plugins(PlaygroundPlugin { options }).run()
}
