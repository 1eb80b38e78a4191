//! Bad input never kills the daemon: thousands of random and mutated lines
//! (random bytes, huge numbers, a 1 MB line, invalid UTF-8), after which the
//! engine still answers `isready` and a legal `go`, and exits 0 on `quit`.

use grasshopper_rules::{Move, Position};
use grasshopper_ugi::{parse_command, Command, ErrorCode, MAX_LINE};
use testkit::transcript::Engine;

/// xorshift64*: a small deterministic generator, so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const VALID: &[&str] = &[
    "uci",
    "ugi",
    "isready",
    "uginewgame",
    "ucinewgame",
    "stop",
    "ponderhit",
    "d",
    "position startpos",
    "position startpos moves bar/1 bar/2 1/7 bar/3",
    "position fen w...../W...../....../b....B b 9 9 1-1 w1 moves 24/off",
    "position fen ....../....../....../W..... w 0 4 1-0 w1 moves 19/off",
    "go depth 2",
    "go nodes 100 searchmoves bar/1 bar/2",
    "go movetime 5",
    "go p1time 100 p2time 100 p1inc 1 p2inc 1 movestogo 3",
    "go wtime 50 btime 50",
    "go infinite",
    "go ponder",
    "query gameover",
    "query p1turn",
    "query result",
    "query legal bar/1",
    "query moves",
    "query fen",
    "setoption name MultiPV value 2",
    "setoption name Checkers value 6",
    "setoption name Move Overhead value 10",
    "setoption name Ponder value true",
    "perft 1",
];

const WORDS: &[&str] = &[
    "go",
    "position",
    "fen",
    "startpos",
    "moves",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "p2inc",
    "searchmoves",
    "query",
    "legal",
    "setoption",
    "name",
    "value",
    "bar/1",
    "7/13",
    "24/off",
    "pass",
    "-1",
    "0",
    "18446744073709551616",
    "w",
    "b",
    "-",
    "0-0",
    "\t",
    "\r",
    "isready",
    "infinite",
    "ponder",
];

const HUGE: &[&str] = &[
    "99999999999999999999999999999999",
    "18446744073709551615",
    "18446744073709551616",
    "4294967295",
    "4294967296",
    "-9223372036854775808",
    "-99999999999999999999999",
    "1e9",
    "0x10",
];

fn mutate(rng: &mut Rng, line: &str) -> Vec<u8> {
    let mut b = line.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = if b.is_empty() {
            0
        } else {
            rng.below(b.len() + 1)
        };
        match rng.below(7) {
            0 if !b.is_empty() => {
                b.remove(at.min(b.len() - 1));
            }
            1 => b.insert(at, (rng.next() % 256) as u8),
            2 => b.insert(at, b' '),
            3 => b.truncate(at),
            4 => {
                let w = rng.pick(WORDS);
                b.splice(at..at, format!(" {w} ").into_bytes());
            }
            5 => {
                let h = rng.pick(HUGE);
                b.splice(at..at, format!(" {h}").into_bytes());
            }
            _ => {
                // An invalid UTF-8 pair.
                b.splice(at..at, [0xC3, 0x28]);
            }
        }
    }
    b.retain(|&c| c != b'\n');
    b
}

/// Lines that would end the session early or tie up the machine (memory,
/// threads, long counts) are left out; everything else is fair game.
fn harmless(line: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(line) else {
        return true;
    };
    match parse_command(text) {
        Ok(Some(Command::Quit)) => false,
        Ok(Some(Command::Perft(d))) => d <= 2,
        Ok(Some(Command::Bench(_))) => false,
        Ok(Some(Command::SetOption { name, .. })) => {
            let n = name.to_lowercase();
            !n.contains("hash") && !n.contains("thread")
        }
        _ => true,
    }
}

/// True when the engine is bound to answer this line with an error.
fn refused_by_parser(line: &[u8]) -> bool {
    if line.len() > MAX_LINE {
        return true;
    }
    match std::str::from_utf8(line) {
        Err(_) => true,
        Ok(text) => parse_command(text).is_err(),
    }
}

#[test]
fn thousands_of_bad_lines_leave_the_engine_working() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut lines: Vec<Vec<u8>> = Vec::new();
    while lines.len() < 4000 {
        let line = match rng.below(10) {
            0..=2 => {
                let n = rng.below(120);
                (0..n)
                    .map(|_| (rng.next() % 256) as u8)
                    .filter(|&c| c != b'\n')
                    .collect()
            }
            3 => {
                let n = 1 + rng.below(8);
                (0..n)
                    .map(|_| rng.pick(WORDS))
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into_bytes()
            }
            4 => format!(
                "{} {}",
                rng.pick(&[
                    "go depth",
                    "go nodes",
                    "go movetime",
                    "go wtime",
                    "perft",
                    "go movestogo",
                    "setoption name MultiPV value",
                    "go p2inc"
                ]),
                rng.pick(HUGE)
            )
            .into_bytes(),
            5 => rng.pick(VALID).as_bytes().to_vec(),
            _ => {
                let base = rng.pick(VALID);
                mutate(&mut rng, base)
            }
        };
        if harmless(&line) {
            lines.push(line);
        }
    }
    // The monsters: a 1 MB line, one just over the limit, control bytes.
    lines.insert(100, vec![b'x'; 1 << 20]);
    lines.insert(200, {
        let mut l = b"go depth 1 ".to_vec();
        l.extend(std::iter::repeat_n(b'9', MAX_LINE));
        l
    });
    lines.insert(300, b"\0\0\0\r\r\x1b[2J\x07".to_vec());
    lines.insert(400, vec![0xFF; 5000]);
    let refused = lines.iter().filter(|l| refused_by_parser(l)).count();

    let mut e = Engine::start(crate::BIN, &[]);
    for (i, l) in lines.iter().enumerate() {
        let mut bytes = l.clone();
        bytes.push(b'\n');
        e.send_bytes(&bytes);
        // Let searches end now and then, so that later lines meet an idle
        // engine as well as a busy one.
        if i % 40 == 39 {
            e.send("stop");
        }
    }
    e.send("stop");
    e.send("isready");
    // Every isready among the lines gets its readyok; ours is the last.
    let readies = 1 + lines
        .iter()
        .filter(|l| {
            std::str::from_utf8(l).is_ok_and(|t| parse_command(t) == Ok(Some(Command::IsReady)))
        })
        .count();
    let mut replies = Vec::new();
    for _ in 0..readies {
        replies.extend(e.recv_until(|l| l == "readyok"));
    }
    let errors: Vec<&String> = replies.iter().filter(|l| l.starts_with("error ")).collect();
    for err in &errors {
        let code = err.split(' ').nth(1).unwrap();
        assert!(code.parse::<ErrorCode>().is_ok(), "unknown code in {err:?}");
        assert!(err.len() < 1200, "error line of {} bytes", err.len());
    }
    eprintln!(
        "{} lines sent ({} refused by the parser), {} lines back, {} of them errors",
        lines.len(),
        refused,
        replies.len(),
        errors.len()
    );
    // Every unreadable line was answered (and more errors: busy, illegal...).
    assert!(
        errors.len() >= refused,
        "{} errors for {refused} bad lines",
        errors.len()
    );

    // Still working: a fresh game, a legal move, a clean exit.
    e.send("setoption name Checkers value 14");
    let pos = Position::start(14)
        .unwrap()
        .play("bar/1".parse().unwrap())
        .unwrap();
    loop {
        // A short perft from the fuzz may still be counting: retry on busy.
        e.send("position startpos moves bar/1");
        e.send("query fen");
        let r = e.recv_until(|l| l.starts_with("response") || l.starts_with("error busy"));
        if r.last().unwrap().starts_with("response") {
            assert_eq!(r.last().unwrap(), &format!("response {pos}"));
            break;
        }
        // The position was refused; the query is still answered (about the
        // old position): read that answer before trying again.
        e.recv_until(|l| l.starts_with("response"));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    e.send("go depth 2");
    let r = e.recv_until(|l| l.starts_with("bestmove"));
    let m: Move = r
        .last()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(pos.legal_moves().contains(m), "bestmove {m}");
    e.send("quit");
    let (status, _) = e.finish();
    assert!(status.success(), "{status}");
}
