//! A web page's address as command-line arguments, so that a link can open a lesson.

/// The launch options of a web page's address, as command-line arguments: `?map=trap&algorithm=jps`
/// is `--map trap --algorithm jps`, so a teacher can link a lesson. Values are percent-decoded
/// (`+` is a space); a key without a value is passed as a flag.
pub fn args_from_query(query: &str) -> Vec<String> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter(|pair| pair.split('=').next() != Some(crate::app::test_hook::QUERY_KEY))
        .flat_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = format!("--{}", percent_decode(key));
            let value = (!value.is_empty()).then(|| percent_decode(value));
            std::iter::once(key).chain(value)
        })
        .collect()
}

/// `a%20b+c` → `a b c`; a malformed escape is kept as it is.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::launch::options::{LaunchOptions, MapfLaunch};

    #[test]
    fn a_page_address_gives_the_same_options_as_the_command_line() {
        assert_eq!(
            args_from_query("?map=trap&algorithm=jps"),
            ["--map", "trap", "--algorithm", "jps"]
        );
        assert_eq!(
            args_from_query("?generate=maze%3A41x31%3A7&help"),
            ["--generate", "maze:41x31:7", "--help"]
        );
        assert_eq!(args_from_query("?map=my+map%2"), ["--map", "my map%2"]);
        assert!(args_from_query("").is_empty() && args_from_query("?").is_empty());
        assert_eq!(args_from_query("?test_hook&map=trap"), ["--map", "trap"]);
        let options = LaunchOptions::parse(args_from_query("?map=random-32-32-10&mapf=400:scen"));
        let mapf = MapfLaunch {
            agents: 400,
            from_scenario: true,
        };
        assert_eq!(options.map(|o| o.mapf), Ok(Some(mapf)));
        for bad in ["0", "x", "5:random", "99999"] {
            assert!(LaunchOptions::parse(["--mapf".into(), bad.into()]).is_err());
        }
        let options = LaunchOptions::parse(args_from_query("?map=trap&agents=20:flow"));
        assert!(options.is_ok_and(|o| o.map.is_some() && o.agents.is_some()));
    }
}
