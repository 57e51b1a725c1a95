//! The compiled game for boards of up to `64 × W` cells: the board's tables as bitboards,
//! the compiled rules, and what the engine needs to know about them (which cells a piece
//! could ever attack, whether two rules could yield the same move, what makes a move
//! irreversible).

use super::apart::may_write_twice;
use super::apply::CEffect;
use super::bits::Bits;
use super::compile::test::TestEnv;
use super::evaluate::{CondFn, Ctx, ExprCompiler, IntFn};
use super::footprint::Footprint;
use super::generate::CStmt;
use super::hash::Keys;
use super::state::{Cell, Codes, MAX_PLAYERS, Move, NONE, State};
use super::status::EndRule;
use crate::geometry::{Board, MAX_DIRS};
use crate::ir::visit::{Visitor, walk_program, walk_stmt};
use crate::ir::{self, CellExpr, DirRef, Effect, Program, Stmt};

/// The board's tables.
pub struct Geo<const W: usize> {
    pub board: Board,
    pub cells: u16,
    /// Every cell of the board.
    pub all: Bits<W>,
    pub nb: Vec<[Cell; MAX_DIRS]>,
    /// Per cell and direction: the cell whose neighbour that way it is (`NONE` if none).
    pub back: Vec<[Cell; MAX_DIRS]>,
    /// Per direction: whether `back` is exact (no cell is the neighbour of two cells that
    /// way, as on grids); when not, the cells before a set are found by a scan.
    pub back_exact: [bool; MAX_DIRS],
    /// Per direction, when stepping that way adds the same number to every cell (a
    /// translation, as on rectangles and rhombi): that number, and the cells that have
    /// a neighbour that way.
    pub translation: [Option<(i32, Bits<W>)>; MAX_DIRS],
    /// Per cell and direction: the cells beyond it, to the edge.
    pub ray_mask: Vec<[Bits<W>; MAX_DIRS]>,
    /// Whether moving in a direction goes to higher cell numbers (then the nearest cell
    /// of a ray is its lowest).
    pub increasing: [bool; MAX_DIRS],
    pub longest_ray: usize,
    /// Rounds of a fill by doubling steps (1, 2, 4… cells) that cover a ray: a slide's
    /// fill holds the cells it may go on from, the farthest `longest_ray - 1` away, and
    /// `r` rounds reach `2^r` cells (at least one round).
    pub fill_rounds: u32,
    pub opposite: [u8; MAX_DIRS],
    /// Per player: the absolute direction of each rotation from its forward.
    pub rel: [[u8; MAX_DIRS]; MAX_PLAYERS],
    /// Per leap, per cell: its targets.
    pub leap_lists: Vec<Vec<Vec<Cell>>>,
    pub leap_masks: Vec<Vec<Bits<W>>>,
    /// Per region, per player.
    pub regions: Vec<Vec<Bits<W>>>,
    /// Per cell, its neighbours for connection (orthogonal ones, or every one on a
    /// hexagonal board).
    pub adjacent: Vec<Bits<W>>,
    /// One direction of each line through a cell (the other being its opposite).
    pub axes: Vec<u8>,
}

impl<const W: usize> Geo<W> {
    pub fn new(g: &ir::Game) -> Geo<W> {
        let board = Board::new(g.board.clone()).expect("the checker only accepts valid boards");
        let cells = board.cells();
        let dirs = board.dir_count();
        let nb: Vec<[Cell; MAX_DIRS]> = (0..cells)
            .map(|c| {
                std::array::from_fn(|d| {
                    if d < dirs {
                        board.step(c, d as u8)
                    } else {
                        NONE
                    }
                })
            })
            .collect();
        let ray_mask: Vec<[Bits<W>; MAX_DIRS]> = (0..cells)
            .map(|c| {
                std::array::from_fn(|d| {
                    if d < dirs {
                        Bits::from_cells(board.ray(c, d as u8).iter().copied())
                    } else {
                        Bits::EMPTY
                    }
                })
            })
            .collect();
        let increasing = std::array::from_fn(|d| {
            (0..cells)
                .find_map(|c| {
                    let n = nb[c as usize][d];
                    (n != NONE).then_some(n > c)
                })
                .unwrap_or(true)
        });
        let longest_ray = (0..cells)
            .flat_map(|c| (0..dirs).map(move |d| (c, d)))
            .map(|(c, d)| board.ray(c, d as u8).len())
            .max()
            .unwrap_or(0);
        let opposite = std::array::from_fn(|d| if d < dirs { board.opposite(d as u8) } else { 0 });
        let rel = std::array::from_fn(|p| {
            let f = g.players.get(p).and_then(|pl| pl.forward).unwrap_or(0);
            std::array::from_fn(|r| {
                if r < dirs {
                    board.rotate(f, r as u8)
                } else {
                    0
                }
            })
        });
        let leap_lists: Vec<Vec<Vec<Cell>>> = g
            .leaps
            .iter()
            .map(|offsets| (0..cells).map(|c| board.leap_targets(c, offsets)).collect())
            .collect();
        let leap_masks = leap_lists
            .iter()
            .map(|per| {
                per.iter()
                    .map(|t| Bits::from_cells(t.iter().copied()))
                    .collect()
            })
            .collect();
        let regions = g
            .regions
            .iter()
            .map(|r| {
                (0..MAX_PLAYERS)
                    .map(|p| {
                        let cells = r.cells.get(p).or(r.cells.first());
                        Bits::from_cells(cells.into_iter().flatten().copied())
                    })
                    .collect()
            })
            .collect();
        let join: Vec<u8> = match board.dir_word("orthogonal") {
            Some(crate::geometry::DirWord::Set(d)) => d,
            _ => (0..dirs as u8).collect(),
        };
        let adjacent = (0..cells)
            .map(|c| {
                Bits::from_cells(
                    join.iter()
                        .map(|&d| board.step(c, d))
                        .filter(|&n| n != NONE),
                )
            })
            .collect();
        let axes = (0..(dirs / 2) as u8).collect();
        let mut back = vec![[NONE; MAX_DIRS]; cells as usize];
        let mut back_exact = [true; MAX_DIRS];
        for c in 0..cells {
            for d in 0..MAX_DIRS {
                let n = nb[c as usize][d];
                if n != NONE {
                    let b = &mut back[n as usize][d];
                    back_exact[d] &= *b == NONE;
                    *b = c;
                }
            }
        }
        let translation = std::array::from_fn(|d| {
            let pairs = (0..cells).filter_map(|c| {
                let n = nb[c as usize][d];
                (n != NONE).then_some((c, n))
            });
            let delta = pairs.clone().next().map(|(c, n)| n as i32 - c as i32)?;
            pairs
                .clone()
                .all(|(c, n)| n as i32 - c as i32 == delta)
                .then(|| (delta, Bits::from_cells(pairs.map(|(c, _)| c))))
        });
        Geo {
            back,
            back_exact,
            translation,
            adjacent,
            axes,
            all: Bits::first(cells as usize),
            board,
            cells,
            nb,
            ray_mask,
            increasing,
            longest_ray,
            // The least r with 2^r >= longest_ray - 1: a 10 x 10 board's nine-cell rays
            // take three rounds (to 8 cells), not four.
            fill_rounds: (usize::BITS - longest_ray.saturating_sub(2).leading_zeros()).max(1),
            opposite,
            rel,
            leap_lists,
            leap_masks,
            regions,
        }
    }
}

/// What can change that the rules can never change back: a move that changes any of it
/// makes every earlier position unreachable.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Pieces on the board and in hand: never more, unless some effect puts pieces.
    material: bool,
    /// Flags that are only ever set or only ever cleared.
    flags: Vec<u8>,
}

/// Per player (or one for all), per cell: the cells a step statement reaches.
pub type StepMasks<const W: usize> = std::sync::Arc<Vec<Vec<Bits<W>>>>;

/// A chain of hops: its hop rules, what ends it early, and which pieces could start it
/// (`gate`).
pub type Chain<const W: usize> = (
    Vec<CStmt<W>>,
    Option<CondFn<W>>,
    Option<super::gate::Gate<W>>,
);

/// A piece type's chains in one class of `priority`, every one with a gate.
pub struct GatedClass {
    pub piece: u8,
    pub class: u8,
    pub chains: Vec<u16>,
}

/// A compiled game.
pub struct Core<const W: usize> {
    /// Tells this compiled game from any other of the process, for what is kept per
    /// thread between questions about it.
    pub id: u64,
    pub program: Program,
    pub geo: Geo<W>,
    pub codes: Codes,
    /// Hash keys, when some rule reads `repetitions`.
    pub keys: Option<Keys>,
    pub players: u8,
    /// Move rules per piece type.
    pub moves: Vec<Vec<CStmt<W>>>,
    /// Attack rules per piece type (its move rules when it has none).
    pub attacks: Vec<Vec<CStmt<W>>>,
    /// Per piece type: whether its attack rules' targets are sets (`Core::reaches_as_set`),
    /// so that `count attacks` counts them with no emitter.
    pub attacks_as_sets: Vec<bool>,
    /// Per player: the attack rules of those types, planned for `count attacks`.
    pub counted: Vec<Vec<super::tally::Counted<W>>>,
    /// Piece types, a bit each, whose move rules' targets are sets (`reaches_as_set`)
    /// with no effect block: counting under `legal if` takes their targets as sets with
    /// no emitter (`Core::count_judged`).
    pub moves_as_sets: u32,
    /// Piece types, a bit each, whose moves a draw takes from their rules' sets when
    /// one of them is the only piece that can move (`Core::lone_draw`): rules that pass
    /// `drawn_by_sets` and repeat no move, in a game with no `legal if` and no action.
    pub lone_by_sets: u32,
    /// The same, read backwards from the attacked cell, for piece types whose attack rules
    /// are plain steps, slides and leaps.
    pub reverse: Vec<Vec<super::attack::Rev<W>>>,
    /// Per piece type: the attack rules not read backwards, run forwards.
    pub attack_rest: Vec<Vec<CStmt<W>>>,
    /// Per player: how `attacked` looks for that player's attackers.
    pub attack_plans: Vec<super::attack::Plan<W>>,
    /// Per piece type and cell: every origin from which its forward attack rules
    /// (`attack_rest`) could ever reach the cell.
    pub reach: Vec<Vec<Bits<W>>>,
    /// Whether a piece type has several rules that could produce the same move.
    pub may_duplicate: Vec<bool>,
    /// Per piece type and origin (the last one: in hand): at least as many as the
    /// candidate moves its rules can produce there.
    pub bound: Vec<Vec<u32>>,
    /// Per piece type: whether its rules are one placement given as a set
    /// (`Core::placements_only`), so that a random draw counts and decodes it directly.
    pub placed: Vec<bool>,
    /// Whether any piece is `placed`.
    pub any_placed: bool,
    /// Per piece type: whether its rules are placements given as sets, perhaps under an
    /// `if` on the position (`Core::placements_only`), so that they are counted as sets.
    pub counted_placed: Vec<bool>,
    /// When the game's one piece type is placed by a lone `place on empty` (within some
    /// cells, under a condition or not): per player, those cells (`Placing::on_empty`,
    /// unguarded); else empty. A draw
    /// reads them with no branch on the test's form (its set, a two-word value on the
    /// stack after a jump table, was a tenth of Hex's playouts).
    pub placed_on_empty: Vec<Bits<W>>,
    /// Per piece type that is `counted_placed`: the first such type whose rules are the
    /// same statements (`moves Rook, Bishop, Knight { place on empty }`), which has the
    /// same cells to be placed on: counted once for them all.
    pub placed_like: Vec<u8>,
    /// Per piece type that is `counted_placed`: the first such type whose placement, the
    /// `if` around it left out, is the same statement (`if mover == white { place on
    /// empty }` and `if moves-made > 0 { place on empty }`): its cells are those of that
    /// type, built once for both when both guards hold.
    pub placed_set_like: Vec<u8>,
    /// Per piece type: how a placement playout's draw takes it (`Core::placing_plan`).
    pub placing: super::placeplay::Placing<W>,
    /// Per piece type: its rules as shifts of the set of its pieces, when they are plain
    /// steps and slides along translations of the board (`Core::batch_of`), so that
    /// counting moves counts all its pieces' at once.
    pub batch: Vec<Option<super::batch::Batch<W>>>,
    /// Per piece type, per statement of its rules: for an `if` with no `else` whose
    /// condition has a part on the position alone, that part (`batch::IfGuard`).
    pub guards: Vec<Vec<Option<super::phase::IfGuard<W>>>>,
    /// Per piece type, per statement of its rules: for an `if` with no `else` whose
    /// condition is on the piece's own cell and the position, its part on the cell
    /// (`phase::origin_part`).
    pub origin_filters: Vec<Vec<Option<Vec<super::phase::OriginAtom<W>>>>>,
    /// The piece types that have a `batch`.
    pub batched: Vec<u8>,
    /// Those of `batched` whose rules never give one move twice, and that a player has
    /// `DRAW_BATCH_FROM` or more of at the start: a draw takes their moves from the sets.
    pub drawn_batched: Vec<u8>,
    /// Whether random draws try `Core::draw_shifted`: no action or `legal if` can take
    /// a move out of a draw among the sets' (a `new` rule cannot either: it leaves its
    /// type unbatched, or under an `if` makes a guard whose phase the general draw
    /// takes, as an Amazon's shot), and some type is in
    /// `drawn_batched`. Without such a type the draw seldom applies (a lone king beside
    /// stones placed from the hand, which have no rules on the board), and trying it at
    /// every ply costs more than it saves (Tempo: 1.056× the instructions per ply).
    pub draws_shifted: bool,
    /// The groups of types `Core::draw_shifted` draws from their sets.
    pub shift_drawn: Vec<super::batch::ShiftGroup>,
    /// Some group of `shift_drawn` has more than one type.
    pub shift_grouped: bool,
    /// Whether any of `shift_drawn`'s types has guards (`batch::Guard`).
    pub shift_guarded: bool,
    /// The words `Core::draw_shifted` may write: `W + 1` per shift of every group.
    pub shift_words: usize,
    /// When every class of `priority` is made of chains with a gate (`gate.rs`), and no
    /// chain is outside a class: each piece type's chains per class. Only the pieces that
    /// could start one need listing for the classes, and a player none of whose pieces
    /// could has moves of no class only.
    pub gated_classes: Option<Vec<GatedClass>>,
    /// With `gated_classes`: per piece type, `batch` of its moves of no class, and the
    /// types whose draws of those moves take them from the sets (as `drawn_batched`).
    pub unclassed: Vec<Option<super::batch::Batch<W>>>,
    pub drawn_unclassed: Vec<u8>,
    /// Per piece type: whether its rules can move it (or make moves from it) on the
    /// board. Stones that are only ever placed are no origin of a move: move generation
    /// skips them.
    pub acts_on_board: Vec<bool>,
    /// Whether every piece type acts on the board.
    pub all_act_on_board: bool,
    /// Whether no piece type does.
    pub none_act_on_board: bool,
    /// The piece types whose rules are `if`s that can rule out some of their pieces,
    /// position by position, without running them (`origin.rs`).
    pub origin_gates: Vec<(u8, super::origin::OriginGate<W>)>,
    /// Whether every move is a placement from a hand or an action, with nothing that makes
    /// drawing one more than drawing a slot (no `legal if`, `priority`, choices, chains
    /// or pieces made from nothing; under 64 actions): `Core::random_placed` then draws.
    pub only_placed: bool,
    /// Whether a piece in hand may have a move (a type with rules from the hand, by
    /// `bound`), so that the draws of games with none skip the hands.
    pub hands: bool,
    /// Whether counting the moves of a position adds up counts per piece (no `legal if`,
    /// choices, pieces made from nothing, `priority` or rules that may repeat a move):
    /// `Core::count_legal` then lists nothing.
    pub counts_in_bulk: bool,
    /// `after move` blocks, with the piece types they apply to.
    pub after: Vec<(u32, Vec<CEffect<W>>)>,
    /// The piece types some `after move` block applies to, a bit each.
    pub after_pieces: u32,
    /// The `after move` blocks that do nothing after a plain move when their condition
    /// fails before it (`asleep.rs`), and the pieces of the others, a bit per type.
    pub sleepers: Vec<super::asleep::Sleeper>,
    pub always_awake: u32,
    /// Those whose `after move` blocks must run for `legal if` to judge their moves
    /// (`Core::judged_plain`).
    pub judged_after: u32,
    /// The effect blocks of move statements.
    pub blocks: Vec<Vec<CEffect<W>>>,
    /// Per effect block: whether it starts by putting a piece on the move's target
    /// (`new … then { put neutral Arrow at to … }`), so that a move made from nothing
    /// with it does not put its own piece there first.
    pub puts_on_to: Vec<bool>,
    /// The chains of hops of the rules, by index.
    pub chains: Vec<Chain<W>>,
    /// The actions, with when they may be taken.
    pub actions: Vec<(CondFn<W>, Vec<CEffect<W>>)>,
    /// Whether every move is found by counting per piece (no priority between classes,
    /// chains, choices made inside moves, actions or pieces made from nothing).
    pub simple: bool,
    /// Whether some rule makes pieces from nothing (`new`): the same move may then come
    /// from several pieces, and counts once.
    pub creates: bool,
    /// Whether some effect (of a move, an `after move` block or an action) makes a choice,
    /// so that one candidate may stand for several moves.
    pub any_choice: bool,
    /// Whether random moves must be drawn from the whole list: choices expand candidates
    /// into several moves, `priority longest` compares whole chains, and with priority
    /// between classes duplicates could hide in another class.
    pub list_draws: bool,
    /// Effect blocks that contain a `choose`, and piece types whose `after move` blocks do.
    pub choice_blocks: Vec<bool>,
    /// Effect blocks that write only cells their move names (`gate::names_its_writes`):
    /// where a hop with one lands can be told before the hop is made.
    pub named_writes: Vec<bool>,
    pub choice_pieces: u32,
    /// How a chosen cell is written after a move: `x` when the `choose` removes, else `/`;
    /// per effect block, and for the `after move` blocks of each piece type.
    choice_sep: Vec<char>,
    after_sep: Vec<char>,
    pub legal: Option<CondFn<W>>,
    /// Where a move could change what `legal` says, when that can be told.
    pub legal_foot: Option<Footprint<W>>,
    /// Whether counting moves counts the plain ones off `legal_foot` as sets and judges
    /// only the rest (`Core::count_judged`): a footprint, `simple` rules and no rule
    /// that may repeat a move.
    pub judges_in_bulk: bool,
    pub score_fn: Option<IntFn<W>>,
    pub end: Vec<EndRule<W>>,
    pub progress: Progress,
}

#[cfg(test)]
impl<const W: usize> Core<W> {
    /// The example game `docs/examples/NAME.game`, compiled, for tests.
    pub fn example(name: &str) -> Core<W> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("docs/examples/{name}.game"));
        Core::of_text(&std::fs::read_to_string(path).expect("an example game"))
    }

    /// A game's text, compiled, with the IR passes run as `Engine::new` runs them.
    pub fn of_text(text: &str) -> Core<W> {
        let mut program = crate::compile(text).expect("compiles").0;
        super::passes::run(&mut program);
        Core::new(program)
    }
}

impl<const W: usize> Core<W> {
    pub fn new(program: Program) -> Core<W> {
        let g = &program.game;
        let geo = Geo::<W>::new(g);
        let codes = Codes::new(g.pieces.len());
        let players = g.players.len().max(1) as u8;
        let env = TestEnv {
            codes: &codes,
            players,
            pieces: g.pieces.len(),
            all: geo.all,
            regions: &geo.regions,
        };
        let x = ExprCompiler {
            tests: &env,
            geo: &geo,
            chains: Default::default(),
            sights: Default::default(),
        };
        let moves: Vec<Vec<CStmt<W>>> = g.moves.iter().map(|m| x.stmts(m)).collect();
        let origin_filters = per_if(&g.moves, |cond| super::phase::origin_part(&x, cond));
        let guards = per_if(&g.moves, |cond| {
            let (part, whole) = super::phase::position_part(cond)?;
            Some(super::phase::IfGuard {
                holds: x.cond(&part),
                whole,
            })
        });
        // Pieces only ever placed are no origin on the board: no gate to pass.
        let origin_gates = (g.moves.iter().enumerate())
            .filter(|(_, m)| acts_on_board(m))
            .filter_map(|(p, m)| Some((p as u8, x.origin_gate(m)?)))
            .collect();
        let attack_ir: Vec<Vec<Stmt>> = (0..g.pieces.len())
            .map(|p| g.attacks[p].clone().unwrap_or_else(|| g.moves[p].clone()))
            .collect();
        let attacks = attack_ir.iter().map(|m| x.stmts(m)).collect();
        let (reverse, attack_rest_ir): (Vec<_>, Vec<_>) = attack_ir
            .iter()
            .map(|m| super::attack::reverse(&x, m))
            .unzip();
        let attack_rest = attack_rest_ir.iter().map(|m| x.stmts(m)).collect();
        let after: Vec<(u32, Vec<CEffect<W>>)> = g
            .after
            .iter()
            .map(|a| (a.pieces, x.effects(&a.effects)))
            .collect();
        let blocks = program.effects.iter().map(|b| x.effects(b)).collect();
        let puts_on_to = (program.effects.iter())
            .map(|b| {
                matches!(
                    b.first(),
                    Some(Effect::Put {
                        at: CellExpr::To,
                        ..
                    })
                )
            })
            .collect();
        let after_pieces = after.iter().fold(0, |m, (pieces, _)| m | pieces);
        let (sleepers, always_awake) = super::asleep::sleepers(&g.after);
        let legal = g.legal.as_ref().map(|c| x.cond(c));
        let legal_foot = Footprint::of(&x, &program, &attack_ir);
        let score_fn = g.score.as_ref().map(|s| x.int(s));
        let end = g.end.iter().map(|e| EndRule::new(&x, e)).collect();
        let actions = g
            .actions
            .iter()
            .map(|a| (x.cond(&a.when), x.effects(&a.effects)))
            .collect();
        let choice_blocks: Vec<bool> = program.effects.iter().map(|b| has_choice(b)).collect();
        let named_writes = (program.effects.iter())
            .map(|b| super::gate::names_its_writes(b))
            .collect();
        let choice_pieces = g
            .after
            .iter()
            .filter(|a| has_choice(&a.effects))
            .fold(0, |m, a| m | a.pieces);
        let chains = x.chains.take();
        let choice_sep = program.effects.iter().map(|b| separator(b)).collect();
        let after_sep = (0..g.pieces.len())
            .map(|p| {
                g.after
                    .iter()
                    .filter(|a| a.pieces >> p & 1 != 0 && has_choice(&a.effects))
                    .map(|a| separator(&a.effects))
                    .next()
                    .unwrap_or('/')
            })
            .collect();
        let creates = uses_new(&program);
        let any_choice = choice_pieces != 0
            || choice_blocks.iter().any(|&b| b)
            || g.actions.iter().any(|a| has_choice(&a.effects));
        let simple = g.priority.is_none()
            && chains.is_empty()
            && g.actions.is_empty()
            && !any_choice
            && !creates;
        let may_duplicate: Vec<bool> = g
            .moves
            .iter()
            .map(|m| may_write_twice(&geo, players, m))
            .collect();
        let acts_on_board: Vec<bool> = g.moves.iter().map(|m| acts_on_board(m)).collect();
        let all_act_on_board = acts_on_board.iter().all(|&a| a);
        let list_draws = any_choice
            || g.priority
                .as_ref()
                .is_some_and(|p| p.longest || creates || may_duplicate.iter().any(|&d| d));
        let progress = progress(&program);
        let keys = g.tracks_repetition.then(|| Keys::new(geo.cells as usize));
        static IDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut core = Core {
            id: IDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            geo,
            codes,
            keys,
            players,
            moves,
            attacks,
            attacks_as_sets: Vec::new(),
            counted: Vec::new(),
            moves_as_sets: 0,
            lone_by_sets: 0,
            reverse,
            attack_rest,
            attack_plans: Vec::new(),
            reach: Vec::new(),
            may_duplicate,
            bound: Vec::new(),
            placed: Vec::new(),
            any_placed: false,
            counted_placed: Vec::new(),
            placed_on_empty: Vec::new(),
            placed_like: Vec::new(),
            placed_set_like: Vec::new(),
            placing: Default::default(),
            batch: Vec::new(),
            guards,
            origin_filters,
            batched: Vec::new(),
            drawn_batched: Vec::new(),
            draws_shifted: false,
            shift_drawn: Vec::new(),
            shift_grouped: false,
            shift_guarded: false,
            shift_words: 0,
            gated_classes: None,
            unclassed: Vec::new(),
            drawn_unclassed: Vec::new(),
            acts_on_board,
            all_act_on_board,
            none_act_on_board: false,
            origin_gates,
            only_placed: false,
            hands: false,
            counts_in_bulk: false,
            after_pieces,
            sleepers,
            always_awake,
            judged_after: after_pieces & !legal_foot.as_ref().map_or(0, |f| f.unread_after),
            after,
            blocks,
            puts_on_to,
            chains,
            actions,
            simple,
            creates,
            any_choice,
            list_draws,
            choice_blocks,
            named_writes,
            choice_pieces,
            choice_sep,
            after_sep,
            legal,
            legal_foot,
            judges_in_bulk: false,
            score_fn,
            end,
            progress,
            program,
        };
        core.bound = core
            .program
            .game
            .moves
            .iter()
            .map(|rules| {
                (0..=core.geo.cells)
                    .map(|c| {
                        let from = if c == core.geo.cells { NONE } else { c };
                        core.bound_of(rules, from)
                    })
                    .collect()
            })
            .collect();
        let hand = core.geo.cells as usize;
        core.hands = core.bound.iter().any(|b| b[hand] > 0);
        let mut moves = std::mem::take(&mut core.moves);
        let mut attacks = std::mem::take(&mut core.attacks);
        let mut chains = std::mem::take(&mut core.chains);
        let mut tables = Vec::new();
        let mut rest = std::mem::take(&mut core.attack_rest);
        for rules in moves
            .iter_mut()
            .chain(attacks.iter_mut())
            .chain(rest.iter_mut())
        {
            core.tabulate_steps(rules, &mut tables);
        }
        for (rules, _, gate) in chains.iter_mut() {
            core.tabulate_steps(rules, &mut tables);
            if let Some(gate) = gate {
                core.prepare_gate(gate);
            }
        }
        (core.moves, core.attacks, core.chains, core.attack_rest) = (moves, attacks, chains, rest);
        core.attacks_as_sets = (core.attacks.iter())
            .map(|rules| rules.iter().all(|r| core.reaches_as_set(r)))
            .collect();
        let plain_set = |r: &CStmt<W>| {
            core.reaches_as_set(r)
                && matches!(r, CStmt::Step { then, .. } | CStmt::Leap { then, .. }
                    | CStmt::Slide { then, .. } if *then == NONE)
        };
        core.moves_as_sets = (core.moves.iter().enumerate())
            .filter(|(_, rules)| rules.iter().all(plain_set))
            .fold(0, |m, (p, _)| m | 1 << p);
        // A lone piece's draw leaves out `legal if` (nothing to judge) and actions (no
        // slot beside the piece's).
        let lone = core.legal.is_none() && core.actions.is_empty();
        core.lone_by_sets = (core.moves.iter().enumerate())
            .filter(|&(p, rules)| lone && !core.may_duplicate[p] && core.drawn_by_sets(rules))
            .fold(0, |m, (p, _)| m | 1 << p);
        core.placed = core
            .moves
            .iter()
            .map(|rules| Self::placements_only(rules, false))
            .collect();
        core.counted_placed = core
            .moves
            .iter()
            .map(|rules| Self::placements_only(rules, true))
            .collect();
        core.any_placed = core.placed.contains(&true);
        let rules = &core.program.game.moves;
        core.placed_like = (0..rules.len())
            .map(|p| {
                let like = (0..p).find(|&q| core.counted_placed[q] && rules[q] == rules[p]);
                like.filter(|_| core.counted_placed[p]).unwrap_or(p) as u8
            })
            .collect();
        // The placement under a lone `if` with no `else`, or the rules themselves.
        let unguarded = |rules: &[Stmt]| match rules {
            [
                Stmt::If {
                    then, otherwise, ..
                },
            ] if otherwise.is_empty() => then.clone(),
            r => r.to_vec(),
        };
        core.placed_set_like = (0..rules.len())
            .map(|p| {
                let like = (0..p).find(|&q| {
                    core.counted_placed[q] && unguarded(&rules[q]) == unguarded(&rules[p])
                });
                like.filter(|_| core.counted_placed[p]).unwrap_or(p) as u8
            })
            .collect();
        core.placing = core.placing_plan();
        // A lone type placed by a lone `place on empty`, unguarded: its cells per player,
        // for the one-type draw, as the plan has them.
        if core.moves.len() == 1 && core.placing.unguarded & 1 != 0 {
            core.placed_on_empty = core.placing.on_empty[0].clone();
        }
        core.batch = core
            .moves
            .iter()
            .enumerate()
            .map(|(p, rules)| core.batch_of(p, rules, false))
            .collect();
        core.batched = (0..core.batch.len() as u8)
            .filter(|&p| core.batch[p as usize].is_some())
            .collect();
        // Types a player starts with few of are left to their rules: a draw seldom lands
        // on them, and building their sets every ply would cost more.
        let mut start = vec![[0u32; super::MAX_PLAYERS]; core.moves.len()];
        for p in &core.program.game.setup {
            start[p.piece as usize][p.player as usize] += 1;
        }
        let many = |p: usize| (start[p].iter()).any(|&n| n >= super::movegen::DRAW_BATCH_FROM);
        core.drawn_batched = (core.batched.iter().copied())
            .filter(|&p| !core.may_duplicate[p as usize] && many(p as usize))
            // A filter on the pieces' own cells (a pawn's double step) is more sets to
            // build at every ply, for a draw that lands on one piece: Shakhmaty's pawns
            // drawn from the sets ran 1.04x the instructions per ply of their rules run
            // when drawn.
            .filter(|&p| (core.batch[p as usize].as_ref()).is_some_and(|b| !b.filtered()))
            .collect();
        // Types whose rules are the same are drawn together when a player starts with
        // pieces of several of them (a king among guards).
        let mut groups: Vec<super::batch::ShiftGroup> = Vec::new();
        let together =
            |p: usize, q: usize| (start[p].iter().zip(&start[q])).any(|(&a, &b)| a > 0 && b > 0);
        for &p in &core.batched {
            if core.may_duplicate[p as usize] {
                continue;
            }
            let rules = &core.program.game.moves;
            let alike = |g: &&mut super::batch::ShiftGroup| {
                rules[g.lead as usize] == rules[p as usize]
                    && (std::iter::once(&g.lead).chain(&g.more))
                        .any(|&q| together(p as usize, q as usize))
            };
            match groups.iter_mut().find(alike) {
                Some(g) => g.more.push(p),
                None => groups.push(super::batch::ShiftGroup {
                    lead: p,
                    more: Vec::new(),
                    least: Self::least_drawn(core.batch[p as usize].as_ref().expect("batched")),
                }),
            }
        }
        core.shift_grouped = groups.iter().any(|g| !g.more.is_empty());
        core.shift_guarded = (groups.iter())
            .any(|g| (core.batch[g.lead as usize].as_ref()).is_some_and(|b| b.guarded()));
        core.shift_words = (groups.iter())
            .map(|g| {
                core.batch[g.lead as usize]
                    .as_ref()
                    .map_or(0, |b| b.most_shifts())
            })
            .sum::<usize>()
            * (W + 1);
        core.shift_drawn = groups;
        core.draws_shifted =
            !core.drawn_batched.is_empty() && core.actions.is_empty() && core.legal.is_none();
        core.gated_classes = core.gated_classes();
        if core.gated_classes.is_some() {
            // The same for the moves of no class, drawn when no chain can start.
            core.unclassed = core
                .moves
                .iter()
                .enumerate()
                .map(|(p, rules)| core.batch_of(p, rules, true))
                .collect();
            let g = &core.program.game;
            core.drawn_unclassed = (0..core.moves.len())
                .filter(|&p| core.unclassed[p].is_some())
                .filter(|&p| {
                    let rest: Vec<Stmt> = (g.moves[p].iter())
                        .filter(|s| !matches!(s, Stmt::Class { .. }))
                        .cloned()
                        .collect();
                    !may_write_twice(&core.geo, players, &rest)
                })
                .filter(|&p| many(p))
                .map(|p| p as u8)
                .collect();
        }
        core.none_act_on_board = !core.acts_on_board.contains(&true);
        core.only_placed = core.none_act_on_board
            && core.counted_placed.contains(&true)
            && core.legal.is_none()
            && !core.any_choice
            && !core.creates
            && !core.list_draws
            && core.chains.is_empty()
            && core.program.game.priority.is_none()
            && core.actions.len() < 64;
        core.judges_in_bulk =
            core.legal_foot.is_some() && core.simple && !core.may_duplicate.contains(&true);
        core.counts_in_bulk = core.legal.is_none()
            && !core.any_choice
            && !core.creates
            && core.program.game.priority.is_none()
            && !core.may_duplicate.contains(&true);
        core.tabulate_reverse();
        core.plan_counted();
        core.reach = attack_rest_ir
            .iter()
            .map(|rules| {
                let mut from = vec![Bits::EMPTY; core.geo.cells as usize];
                if !rules.is_empty() {
                    for f in 0..core.geo.cells {
                        for c in core.reach_of(rules, f).iter() {
                            from[c as usize].insert(f);
                        }
                    }
                }
                from
            })
            .collect();
        // After `reach`, which the plans' over-approximations read.
        core.plan_attacks();
        core
    }

    /// The state before the first move.
    pub fn start(&self) -> State<W> {
        let g = &self.program.game;
        let mut st = State::new();
        for p in &g.setup {
            st.put(
                &self.codes,
                None,
                p.cell,
                self.codes.code(p.player, p.piece),
            );
        }
        for (i, f) in g.flags.iter().enumerate() {
            for &c in &f.initial {
                st.set_flag(None, i as u8, c, true);
            }
        }
        for &(p, piece, n) in &g.hand {
            let now = st.hand[p as usize][piece as usize];
            st.set_hand(None, p, piece, now.saturating_add(n));
        }
        for (i, c) in g.counters.iter().enumerate() {
            for p in 0..self.players {
                st.set_counter(p, i as u8, c.initial);
            }
        }
        st.s.previous = self.players - 1;
        st.commit();
        if self.keys.is_some() {
            st.s.hash = self.hash(&st);
        }
        st
    }

    /// The hash of a state, computed in full (`State` keeps it up to date from then on).
    pub fn hash(&self, st: &State<W>) -> u64 {
        let Some(k) = &self.keys else { return 0 };
        let mut h = k.side(st.s.to_move);
        for c in 0..self.geo.cells {
            h ^= k.cell(c, st.board[c as usize]);
            for f in 0..self.program.game.flags.len() {
                if st.flags[f].has(c) {
                    h ^= k.flag(f as u8, c);
                }
            }
        }
        for p in 0..self.players {
            for piece in 0..self.program.game.pieces.len() {
                h ^= k.hand(p, piece as u8, st.hand[p as usize][piece]);
            }
        }
        h
    }

    /// A value that changes when a move changes something the rules never change back
    /// (see `Progress`; placements, which empty hands for good, are told apart by kind).
    pub fn progress_key(&self, st: &State<W>) -> u64 {
        let mut key = 0u64;
        if self.progress.material {
            key = st.occupied.count() as u64;
        }
        for &f in &self.progress.flags {
            key = key
                .wrapping_mul(0x9E37_79B9)
                .wrapping_add(st.flags[f as usize].count() as u64);
        }
        key
    }

    /// The score of `cx.me` (0 when the game declares none).
    pub fn score(&self, st: &State<W>, cx: &mut Ctx) -> i64 {
        match &self.score_fn {
            Some(f) => f(self, st, cx),
            None => 0,
        }
    }

    /// `Core::gated_classes`: the class blocks of every piece type's rules, when each is
    /// made of gated chains only and no chain stands outside them (`priority longest`
    /// compares whole paths, and is left out).
    fn gated_classes(&self) -> Option<Vec<GatedClass>> {
        let priority = self.program.game.priority.as_ref()?;
        if priority.longest || self.chains.is_empty() {
            return None;
        }
        let mut out: Vec<GatedClass> = Vec::new();
        for (piece, rules) in self.moves.iter().enumerate() {
            for s in rules {
                let CStmt::Class { body, class } = s else {
                    if has_chain_or_class(s) {
                        return None;
                    }
                    continue;
                };
                let piece = piece as u8;
                let at = match out
                    .iter()
                    .position(|g| (g.piece, g.class) == (piece, *class))
                {
                    Some(at) => at,
                    None => {
                        out.push(GatedClass {
                            piece,
                            class: *class,
                            chains: Vec::new(),
                        });
                        out.len() - 1
                    }
                };
                for s in body {
                    match s {
                        CStmt::Chain(id) if self.chains[*id as usize].2.is_some() => {
                            out[at].chains.push(*id)
                        }
                        _ => return None,
                    }
                }
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// At least as many as the candidates rules can produce for a piece at `from` (`NONE`:
    /// in hand): a step one per direction, a slide its rays, a placement every cell, and
    /// so on, times the repetitions of enclosing loops. Of the `if`s guarded by a number
    /// of the position equal to different constants (`if phase == 0 { … }  if phase == 1
    /// { … }`), one at most applies: they count as the largest, not their sum.
    fn bound_of(&self, stmts: &[Stmt], from: Cell) -> u32 {
        let mut sum = 0;
        // Per guarded number: the bounds of its `if`s, per constant.
        let mut phases: Vec<(&ir::IntExpr, Vec<(i64, u32)>)> = Vec::new();
        for s in stmts {
            let b = self.stmt_bound(s, from);
            let guard = match s {
                Stmt::If {
                    cond, otherwise, ..
                } if otherwise.is_empty() => phase_guard(cond),
                _ => None,
            };
            let Some((x, k)) = guard else {
                sum += b;
                continue;
            };
            let at = match phases.iter().position(|p| p.0 == x) {
                Some(i) => i,
                None => {
                    phases.push((x, Vec::new()));
                    phases.len() - 1
                }
            };
            match phases[at].1.iter_mut().find(|e| e.0 == k) {
                Some(e) => e.1 += b,
                None => phases[at].1.push((k, b)),
            }
        }
        sum + phases
            .iter()
            .map(|p| p.1.iter().map(|e| e.1).max().unwrap_or(0))
            .sum::<u32>()
    }

    /// `bound_of` for one statement.
    fn stmt_bound(&self, s: &Stmt, from: Cell) -> u32 {
        let g = &self.geo;
        let ray = |d: &DirRef, max: u8| -> u32 {
            let longest = |d: u8| g.board.ray(from, d).len().min(max as usize) as u32;
            match *d {
                DirRef::Abs(a) => longest(a),
                DirRef::Rel(r) => g
                    .rel
                    .iter()
                    .map(|f| longest(f[r as usize & 7]))
                    .max()
                    .unwrap_or(0),
                DirRef::Var(_) | DirRef::Opp(_) => (0..g.board.dir_count() as u8)
                    .map(longest)
                    .max()
                    .unwrap_or(0),
            }
        };
        let on_board = from != NONE;
        match s {
            // Targets along the loop's line: a pass has only those its ray is long enough
            // for (a piece by the edge has few).
            Stmt::For { slot, dirs, body } => {
                match super::apart::least_along(*slot, body).filter(|_| on_board) {
                    Some(least) => (dirs.iter())
                        .map(|d| {
                            let r = ray(d, u8::MAX);
                            least.iter().filter(|&&n| r >= n as u32).count() as u32
                        })
                        .sum(),
                    None => dirs.len() as u32 * self.bound_of(body, from),
                }
            }
            Stmt::ForPiece { pieces, body, .. } => pieces.len() as u32 * self.bound_of(body, from),
            Stmt::If {
                then, otherwise, ..
            } => self
                .bound_of(then, from)
                .max(self.bound_of(otherwise, from)),
            Stmt::Let { .. } => 0,
            Stmt::Step { dirs, .. } if on_board => dirs.len() as u32,
            Stmt::Slide { dirs, max, .. } if on_board => dirs.iter().map(|d| ray(d, *max)).sum(),
            Stmt::Leap { leap, .. } if on_board => leap
                .iter()
                .map(|&l| g.leap_lists[l as usize][from as usize].len() as u32)
                .max()
                .unwrap_or(0),
            Stmt::MoveAny { .. } if on_board => g.cells as u32,
            Stmt::New(inner) => self.bound_of(std::slice::from_ref(inner), from),
            Stmt::Class { body, .. } => self.bound_of(body, from),
            Stmt::MoveTo { .. } if on_board => 1,
            Stmt::Place { .. } if !on_board => g.cells as u32,
            _ => 0,
        }
    }

    /// Gives each step whose directions are fixed (or relative to the player) the cells it
    /// reaches from each cell, so that its targets are one set operation. Steps in the
    /// same directions share a table, and there are at most `MAX_STEP_TABLES` tables, so
    /// that games with many rules stay small.
    fn tabulate_steps(
        &self,
        rules: &mut [CStmt<W>],
        tables: &mut Vec<(Vec<DirRef>, StepMasks<W>)>,
    ) {
        const MAX_STEP_TABLES: usize = 64;
        for s in rules {
            match s {
                // Only a step whose targets form a set (no condition, a test of sets)
                // can use the table.
                CStmt::Step {
                    dirs,
                    masks,
                    to,
                    cond: None,
                    ..
                } if to.is_set() => {
                    let relative = dirs.iter().any(|d| matches!(d, DirRef::Rel(_)));
                    let fixed = dirs.iter().all(DirRef::is_fixed);
                    if let Some((_, t)) = tables.iter().find(|(d, _)| d == dirs) {
                        *masks = Some(t.clone());
                    } else if fixed && tables.len() < MAX_STEP_TABLES {
                        let players = if relative { self.players as usize } else { 1 };
                        let table: StepMasks<W> = std::sync::Arc::new(
                            (0..players)
                                .map(|p| {
                                    let mut cx = Ctx::new(p as u8);
                                    (0..self.geo.cells)
                                        .map(|c| {
                                            cx.from = c;
                                            Bits::from_cells(
                                                dirs.iter()
                                                    .map(|&d| self.step(c, self.dir(&cx, d)))
                                                    .filter(|&n| n != NONE),
                                            )
                                        })
                                        .collect()
                                })
                                .collect(),
                        );
                        tables.push((dirs.clone(), table.clone()));
                        *masks = Some(table);
                    }
                }
                CStmt::For { body, .. }
                | CStmt::ForPiece { body, .. }
                | CStmt::Class { body, .. } => self.tabulate_steps(body, tables),
                CStmt::If {
                    then, otherwise, ..
                } => {
                    self.tabulate_steps(then, tables);
                    self.tabulate_steps(otherwise, tables);
                }
                CStmt::New(inner) => self.tabulate_steps(std::slice::from_mut(inner), tables),
                _ => {}
            }
        }
    }

    /// Every cell that rules could reach from `from` on an empty board, over-approximated
    /// (rules that compute their target freely reach everywhere).
    fn reach_of(&self, stmts: &[Stmt], from: u16) -> Bits<W> {
        struct Reach<'e, const W: usize> {
            geo: &'e Geo<W>,
            from: u16,
            out: Bits<W>,
        }
        impl<const W: usize> Reach<'_, W> {
            fn dirs(&self, dirs: &[DirRef]) -> Vec<u8> {
                let mut v = Vec::new();
                for d in dirs {
                    match *d {
                        DirRef::Abs(a) => v.push(a),
                        DirRef::Rel(r) => v.extend(self.geo.rel.iter().map(|f| f[r as usize & 7])),
                        DirRef::Var(_) | DirRef::Opp(_) => {
                            v.extend(0..self.geo.board.dir_count() as u8)
                        }
                    }
                }
                v
            }

            /// Every cell a target expression could name: exactly, when it is built from
            /// `from`, squares and steps; else the whole board.
            fn cells(&self, e: &CellExpr) -> Bits<W> {
                let b = &self.geo.board;
                match e {
                    CellExpr::From => Bits::from_cells([self.from]),
                    CellExpr::Const(c) => Bits::from_cells([*c]),
                    CellExpr::Step(start, d, n) => {
                        let starts = self.cells(start);
                        let dirs = self.dirs(std::slice::from_ref(d));
                        Bits::from_cells(starts.iter().flat_map(|s| {
                            dirs.iter().filter_map(move |&d| {
                                (0..*n)
                                    .try_fold(s, |c, _| Some(b.step(c, d)).filter(|&x| x != NONE))
                            })
                        }))
                    }
                    CellExpr::First { start, dir, .. } => {
                        let starts = self.cells(start);
                        let dirs = self.dirs(std::slice::from_ref(dir));
                        Bits::from_cells(starts.iter().flat_map(|s| {
                            dirs.iter().flat_map(move |&d| b.ray(s, d).iter().copied())
                        }))
                    }
                    _ => self.geo.all,
                }
            }
        }
        impl<const W: usize> Visitor for Reach<'_, W> {
            fn stmt(&mut self, s: &Stmt) {
                let b = &self.geo.board;
                match s {
                    Stmt::Step { dirs, .. } => {
                        for d in self.dirs(dirs) {
                            let c = b.step(self.from, d);
                            if c != NONE {
                                self.out.insert(c);
                            }
                        }
                    }
                    Stmt::Slide { dirs, max, .. } => {
                        for d in self.dirs(dirs) {
                            for &c in b.ray(self.from, d).iter().take(*max as usize) {
                                self.out.insert(c);
                            }
                        }
                    }
                    Stmt::Leap { leap, .. } => {
                        for &l in leap {
                            for &c in &self.geo.leap_lists[l as usize][self.from as usize] {
                                self.out.insert(c);
                            }
                        }
                    }
                    Stmt::MoveTo { target, .. } => {
                        let cells = self.cells(target);
                        self.out = self.out.or(cells);
                    }
                    Stmt::MoveAny { .. } | Stmt::Place { .. } | Stmt::Chain { .. } => {
                        self.out = self.geo.all
                    }
                    _ => walk_stmt(self, s),
                }
            }
        }
        let mut r = Reach {
            geo: &self.geo,
            from,
            out: Bits::EMPTY,
        };
        for s in stmts {
            r.stmt(s);
        }
        r.out
    }
}

/// A part `X == k` of a condition (alone or in an `and`), `X` a number read from the
/// position and the player alone, so that it has one value for all of a piece's rules.
fn phase_guard(c: &ir::Cond) -> Option<(&ir::IntExpr, i64)> {
    use ir::IntExpr as I;
    let plain = |x: &I| {
        matches!(
            x,
            I::Counter(_) | I::MovesMade | I::Passes | I::Turns | I::Ply
        )
    };
    match c {
        ir::Cond::Cmp(x, ir::CmpOp::Eq, I::Const(k))
        | ir::Cond::Cmp(I::Const(k), ir::CmpOp::Eq, x)
            if plain(x) =>
        {
            Some((x, *k))
        }
        ir::Cond::And(v) => v.iter().find_map(phase_guard),
        _ => None,
    }
}

/// Whether a compiled statement is or holds a chain or a class block.
fn has_chain_or_class<const W: usize>(s: &CStmt<W>) -> bool {
    match s {
        CStmt::Chain(_) | CStmt::Class { .. } => true,
        CStmt::For { body, .. } | CStmt::ForPiece { body, .. } => {
            body.iter().any(has_chain_or_class)
        }
        CStmt::If {
            then, otherwise, ..
        } => then.iter().chain(otherwise).any(has_chain_or_class),
        CStmt::New(inner) => has_chain_or_class(inner),
        _ => false,
    }
}

/// Whether rules can make a move from a piece on the board (all but placements do).
fn acts_on_board(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Place { .. } | Stmt::Let { .. } => false,
        Stmt::For { body, .. } | Stmt::ForPiece { body, .. } | Stmt::Class { body, .. } => {
            acts_on_board(body)
        }
        Stmt::If {
            then, otherwise, ..
        } => acts_on_board(then) || acts_on_board(otherwise),
        Stmt::New(inner) => acts_on_board(std::slice::from_ref(inner)),
        Stmt::Step { .. }
        | Stmt::Slide { .. }
        | Stmt::Leap { .. }
        | Stmt::MoveTo { .. }
        | Stmt::MoveAny { .. }
        | Stmt::Chain { .. } => true,
    })
}

/// Per piece type, per statement of its rules: what `f` makes of the condition of an `if`
/// with no `else`, or `None`.
fn per_if<T>(
    moves: &[Vec<Stmt>],
    f: impl Fn(&crate::ir::Cond) -> Option<T>,
) -> Vec<Vec<Option<T>>> {
    (moves.iter())
        .map(|m| {
            (m.iter())
                .map(|s| match s {
                    Stmt::If {
                        cond, otherwise, ..
                    } if otherwise.is_empty() => f(cond),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// Which quantities the rules can only change one way.
fn progress(p: &Program) -> Progress {
    struct Writes {
        put: bool,
        set: Vec<bool>,
        cleared: Vec<bool>,
    }
    impl Visitor for Writes {
        fn effect(&mut self, e: &Effect) {
            match e {
                Effect::Put { .. } => self.put = true,
                Effect::SetFlag { flag, value, .. } => {
                    if *value {
                        self.set[*flag as usize] = true
                    } else {
                        self.cleared[*flag as usize] = true
                    }
                }
                _ => {}
            }
            crate::ir::visit::walk_effect(self, e);
        }
    }
    let flags = p.game.flags.len();
    let mut w = Writes {
        put: false,
        set: vec![false; flags],
        cleared: vec![false; flags],
    };
    walk_program(&mut w, p);
    Progress {
        material: !w.put,
        flags: (0..flags as u8)
            .filter(|&f| !(w.set[f as usize] && w.cleared[f as usize]))
            .collect(),
    }
}

impl<const W: usize> Core<W> {
    /// How the cell chosen in a move is written after it.
    pub fn choice_separator(&self, m: &Move) -> char {
        if m.effect != NONE
            && m.hops == 0
            && self.choice_blocks.get(m.effect as usize) == Some(&true)
        {
            self.choice_sep[m.effect as usize]
        } else {
            self.after_sep.get(m.piece as usize).copied().unwrap_or('/')
        }
    }
}

/// `x` when the first `choose` of effects removes a piece, else `/`.
fn separator(effects: &[Effect]) -> char {
    struct Find(Option<bool>);
    impl Visitor for Find {
        fn effect(&mut self, e: &Effect) {
            if let (None, Effect::Choose { removes, .. }) = (self.0, e) {
                self.0 = Some(*removes);
            }
            crate::ir::visit::walk_effect(self, e);
        }
    }
    let mut f = Find(None);
    crate::ir::visit::walk_effects(&mut f, effects);
    if f.0 == Some(true) { 'x' } else { '/' }
}

/// Whether effects contain a `choose`.
fn has_choice(effects: &[Effect]) -> bool {
    struct Find(bool);
    impl Visitor for Find {
        fn effect(&mut self, e: &Effect) {
            self.0 |= matches!(e, Effect::Choose { .. });
            crate::ir::visit::walk_effect(self, e);
        }
    }
    let mut f = Find(false);
    crate::ir::visit::walk_effects(&mut f, effects);
    f.0
}

/// Whether some rule makes pieces from nothing (`new`).
fn uses_new(p: &Program) -> bool {
    struct Find(bool);
    impl Visitor for Find {
        fn stmt(&mut self, s: &Stmt) {
            self.0 |= matches!(s, Stmt::New(_));
            walk_stmt(self, s);
        }
    }
    let mut f = Find(false);
    walk_program(&mut f, p);
    f.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound of a piece on a1 of an 8 x 8 board whose rules are `rules`.
    fn bound_at_a1(rules: &str) -> u32 {
        let src = format!(
            "game \"B\" {{ }}\nplayers {{ white black }}\nboard 8 x 8\npiece A letter A\n\
             counter phase = 0\nsetup {{ white A a1  black A h8 }}\n{rules}\n\
             end {{ when no moves: draw }}\n"
        );
        let core = Core::<1>::of_text(&src);
        core.bound[0][0]
    }

    #[test]
    fn ifs_on_different_values_of_one_number_bound_as_the_largest() {
        // A rook's 14 from a1 and a step's 8 (one per direction), under `phase == 0` and
        // `phase == 1`: one applies at a time.
        let two = "moves A { if phase == 0 { slide orthogonal }  \
                   if phase == 1 and from == last-to { step all } }";
        assert_eq!(bound_at_a1(two), 14);
        // Under the same value, or another number, or with an `else`, both may apply.
        let same = "moves A { if phase == 0 { slide orthogonal }  if phase == 0 { step all } }";
        assert_eq!(bound_at_a1(same), 22);
        let other = "moves A { if phase == 0 { slide orthogonal }  if ply == 1 { step all } }";
        assert_eq!(bound_at_a1(other), 22);
        let with_else = "moves A { if phase == 0 { slide orthogonal } else { step north }  \
                         if phase == 1 { step all } }";
        assert_eq!(bound_at_a1(with_else), 22);
    }

    #[test]
    fn a_for_along_its_lines_bounds_only_the_passes_its_rays_allow() {
        // From a1 three directions have a ray (seven cells each): a move one cell away
        // in each, and one past the first cell of a set, at least two away.
        let near = "flag tile = all
moves A { for d in all {
                    let n = first tile from from toward d
  move to n if n is empty
                    move to first tile from n toward d if n is empty and to is empty } }";
        assert_eq!(bound_at_a1(near), 6);
        let far = "moves A { for d in all { move to from + d * 7  move to from + d * 8 } }";
        assert_eq!(bound_at_a1(far), 3);
        // A target off the line (c4) may be reached in any pass: every pass counts.
        let off = "moves A { for d in all { move to from + d  move to c4 } }";
        assert_eq!(bound_at_a1(off), 16);
        // Bounds are upper bounds: never fewer slots than moves, wherever the piece stands.
        let text = "game \"B\" { }\nplayers { white black }\nboard 5 x 4\nflag tile = all - c2\n\
                    piece A letter A\nhand { white A 3  black A 3 }\n\
                    moves A { place on empty\n for d in all {\n\
                    let n = first tile from from toward d\n  move to n if n is empty\n\
                    move to first tile from n toward d if to is empty then { clear tile at n }\n\
                    move to from + d * 2 if to is empty } }\n\
                    end { when no moves: draw }\n";
        use crate::engine::generate::{Emit, Mode};
        let core = Core::<1>::of_text(text);
        let (mut sc, mut tight) = (crate::engine::movegen::Scratch::default(), 0);
        for game in 0..30 {
            let mut rng = crate::engine::search::Rng::for_playout(2, game);
            let mut pos = core.start_pos();
            for _ in 0..40 {
                for from in pos.st.by_owner[pos.st.s.to_move as usize].iter() {
                    let mut out = Vec::new();
                    let mut e = Emit::new(Mode::Collect, &mut out);
                    let mut cx = Ctx::new(pos.st.s.to_move);
                    cx.from = from;
                    core.generate(&pos.st, &mut cx, &core.moves[0], &mut e);
                    let bound = core.bound[0][from as usize] as usize;
                    assert!(out.len() <= bound, "game {game}: {} > {bound}", out.len());
                    tight += (out.len() == bound) as u32;
                }
                let Some(m) = core.random_legal(&mut pos.st, &mut rng, &mut sc) else {
                    break;
                };
                core.play(&mut pos, &m);
            }
        }
        assert!(
            tight > 20,
            "only {tight} pieces with as many moves as slots"
        );
    }

    /// A game whose pieces have no rules from the hand skips the hands when it draws, and
    /// a position holding pieces in hand (as a written position may) has the same moves.
    #[test]
    fn hands_are_looked_at_only_when_a_piece_in_hand_has_rules() {
        assert!(!Core::<1>::example("chess").hands);
        assert!(Core::<1>::example("tictactoe").hands);
        let core = Core::<1>::example("chess");
        let mut sc = crate::engine::movegen::Scratch::default();
        let (mut st, mut held) = (core.start(), core.start());
        held.hand[0][1] = 2;
        let listed = |st: &mut State<1>| {
            let mut out = Vec::new();
            core.legal_moves(st, &mut out);
            out.len()
        };
        assert_eq!(listed(&mut st), 20);
        assert_eq!(listed(&mut held), 20);
        let mut rng = crate::engine::search::Rng::for_playout(3, 0);
        let m = core
            .random_legal(&mut held, &mut rng, &mut sc)
            .expect("a move");
        assert_ne!(m.from, NONE);
    }
}
