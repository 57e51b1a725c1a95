//! What the checker lowers each construct to: small sources and the IR they become,
//! as snapshots (RON, as `regula ir` prints it). Names are indices; every variable has a
//! slot; `find` stays where it was written (hoisting is an engine pass).

const HEAD: &str = "game \"T\" { }\nplayers { white forward north  black forward south }\n\
    board 5 x 5\npiece King letter K\npiece Man letter M\ngroup any-piece = King, Man\n\
    region home {\n  white: rank 1\n  black: rank 5\n}\nflag mark = a1 e5\ncounter n = 0\n\
    setup { white King a1  black King e5 }\nhand { white Man 2  black Man 2 }\n";

fn ron<T: serde::Serialize>(value: &T) -> String {
    ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default()).unwrap()
}

fn lower(rest: &str) -> regula::ir::Program {
    let source = format!("{HEAD}{rest}");
    match regula::compile(&source) {
        Ok((p, _)) => p,
        Err(d) => panic!("{rest}: {d:#?}"),
    }
}

#[test]
fn declarations() {
    let p = lower("moves King, Man { step all }\nend { when no moves: next loses }\n");
    let g = &p.game;
    insta::assert_snapshot!(ron(&(
        &g.players,
        &g.board,
        &g.regions,
        &g.flags,
        &g.pieces,
        &g.setup,
        &g.hand,
        &g.counters
    )));
}

#[test]
fn move_statements() {
    let p = lower(
        "moves King {\n  step orthogonal to empty or enemy\n  slide diagonal max 2 to not friend\n\
         leap 1 2 to empty if to in home\n  move to from + forward * 2 if to is empty\n}\n\
         moves Man {\n  place on empty and not mark\n  for d in NE, SW { let c = from + d  step d to empty if c is any }\n\
         if moves-made > 0 { step forward } else { step backward }\n  for p in King, Man { step forward then { change to to p } }\n}\n\
         end { when no moves: next loses }\n",
    );
    insta::assert_snapshot!(ron(&(&p.game.moves, &p.game.leaps, &p.effects)));
}

#[test]
fn effects() {
    let p = lower(
        "moves King, Man { step all to not friend }\n\
         after move of any-piece {\n  remove to + north\n  set mark at from  clear mark at to\n\
         n += 2  n -= 1  n = n * 3\n  if n > 4 { again } else { flip to + east }\n\
         put Man at to + west\n  for c from to toward south while enemy { change c to King }\n}\n\
         end { when no moves: next loses }\n",
    );
    insta::assert_snapshot!(ron(&p.game.after));
}

#[test]
fn expressions_and_definitions() {
    let p = lower(
        "moves King, Man { step all to not friend }\n\
         define king = find friend King\n\
         define near(c, d) = c + d is enemy and not (c + opposite d is friend)\n\
         legal if not (any d in all: near(king, d))\n\
         score = count cells where friend Man + count attacks where empty\n\
         end {\n  when as previous: last-to in home: previous wins\n\
         when count cells where enemy from last-to toward north >= 2: draw\n\
         when first occupied from a1 toward east == e1 and repetitions >= 3: draw\n\
         when in-hand(white) + moves-made(black) < turns - ply and next == white: higher score wins\n}\n",
    );
    let g = &p.game;
    insta::assert_snapshot!(ron(&(&g.legal, &g.score, &g.end, g.tracks_repetition)));
}
