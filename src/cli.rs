//! Command-line options. Kept by hand: there are only a few, and the app must start with none.

use std::path::PathBuf;

pub const USAGE: &str = "\
usage: pathfinder_playground [--map FILE.map] [--screenshot OUT.png]

  --map FILE         open this Moving AI .map file instead of the built-in map
  --screenshot OUT   wait for the first plan, save a screenshot of the window to OUT, and exit
  -h, --help         show this help";

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchOptions {
    pub map: Option<PathBuf>,
    pub screenshot: Option<PathBuf>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum CliError {
    Help,
    Bad(String),
}

impl LaunchOptions {
    /// Parses the arguments after the program name.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Self, CliError> {
        let mut options = Self::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .map(PathBuf::from)
                    .ok_or_else(|| CliError::Bad(format!("{name} needs a file name")))
            };
            match arg.as_str() {
                "--map" => options.map = Some(value("--map")?),
                "--screenshot" => options.screenshot = Some(value("--screenshot")?),
                "-h" | "--help" => return Err(CliError::Help),
                other => return Err(CliError::Bad(format!("unknown argument '{other}'"))),
            }
        }
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<LaunchOptions, CliError> {
        LaunchOptions::parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn options() {
        assert_eq!(parse(&[]), Ok(LaunchOptions::default()));
        let o = parse(&["--screenshot", "a.png", "--map", "m.map"]).unwrap();
        assert_eq!(o.screenshot, Some("a.png".into()));
        assert_eq!(o.map, Some("m.map".into()));
        assert!(matches!(parse(&["--screenshot"]), Err(CliError::Bad(_))));
        assert!(matches!(parse(&["--bogus"]), Err(CliError::Bad(_))));
        assert_eq!(parse(&["-h"]), Err(CliError::Help));
    }
}
