//! `gridpath`: the core's command line. The Moving AI scenario runner, multi-agent pathfinding
//! and its checker, and the lifelong benchmark:
//!
//! ```text
//! cargo run --release -p gridpath_cli -- scen MAP.map SCEN.scen [--algo astar]
//! cargo run --release -p gridpath_cli -- mapf MAP.map SCEN.scen --agents 100
//! cargo run --release -p gridpath_cli -- mapf-check MAP.map RESULT.txt
//! cargo run --release -p gridpath_cli -- lifelong CONFIG.json --steps 1000
//! cargo run --release -p gridpath_cli -- route MAP.map 3,4 40,12 --class soldier.txt
//! cargo run --release -p gridpath_cli -- range MAP.map 3,4 6
//! cargo run --release -p gridpath_cli -- fov MAP.map 3,4 8
//! cargo run --release -p gridpath_cli -- help mapf
//! ```
//!
//! A crate of its own, beside `gridpath`, so that a game depending on the library never builds a
//! command line. The arguments are parsed by `clap`'s derive: every command answers `--help`,
//! and a bad argument is named in one line. Exit codes: 0 for success, 1 for a real "no"
//! (a mismatch, an unsolved instance, an invalid plan), 2 for bad input.

/// `println!` for output a reader may stop taking (`gridpath scen … | head`): once the pipe is
/// closed, the command ends quietly, as a Unix tool does, where `println!` would panic.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            $crate::output_failed(e)
        }
    }};
}

mod lifelong;
mod mapf;
mod route;
mod scen;
mod tactics;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Grid pathfinding on the field's benchmarks: every query checked against its published
/// optimum, multi-agent plans checked by a validator that shares no code with the planners.
#[derive(Parser)]
#[command(name = "gridpath", version, verbatim_doc_comment)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Scen(scen::ScenArgs),
    Mapf(mapf::MapfArgs),
    MapfCheck(mapf::CheckArgs),
    Lifelong(lifelong::LifelongArgs),
    Route(route::RouteArgs),
    Range(tactics::RangeArgs),
    Fov(tactics::FovArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            outln!("{}", e.to_string().trim_end());
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprint!("{e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{}", one_line(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    let outcome = match cli.command {
        Command::Scen(args) => scen::run(args),
        Command::Mapf(args) => mapf::solve(args),
        Command::MapfCheck(args) => mapf::check(args),
        Command::Lifelong(args) => lifelong::run(args),
        Command::Route(args) => route::run(args),
        Command::Range(args) => tactics::range(args),
        Command::Fov(args) => tactics::fov(args),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

/// clap's error as one line, like every other message of this command: its lines up to the
/// usage, joined, and where the help is. (clap lays a missing argument out over several lines.)
fn one_line(error: &str) -> String {
    let said: Vec<&str> = error
        .lines()
        .map(str::trim)
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more"))
        .filter(|line| !line.is_empty())
        .collect();
    format!("{} (see --help)", said.join(" "))
}

/// Standard output failed: a closed pipe ends the command with success (its reader has what it
/// wanted), anything else with a message.
fn output_failed(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("cannot write the output: {e}");
    std::process::exit(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_missing_argument_is_one_line() {
        let Err(e) = Cli::try_parse_from(["gridpath", "mapf"]) else {
            panic!("mapf without a map parsed");
        };
        let line = one_line(&e.to_string());
        assert!(!line.contains('\n'), "{line}");
        assert!(line.contains("<MAP>"), "{line}");
    }
}
