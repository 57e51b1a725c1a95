//! "Did you mean": the closest known name to a misspelt one.

/// Longest word (in characters) for which a suggestion is sought: nobody misspells a name
/// that long, and comparing long words costs the product of their lengths.
const MAX_WORD: usize = 64;

/// The closest candidate to `word` by edit distance, if close enough to be a likely typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut unlimited = usize::MAX;
    suggest_within(word, candidates, &mut unlimited)
}

/// [`suggest`], spending at most `budget` units of work (one per candidate, one per cell
/// of each edit-distance table) and taking what it spends from it. When the budget runs
/// out, there is no suggestion: a file with thousands of unknown names among thousands
/// of declared ones would otherwise cost their product.
pub fn suggest_within<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    budget: &mut usize,
) -> Option<&'a str> {
    let w: Vec<char> = word.to_lowercase().chars().collect();
    if w.len() > MAX_WORD {
        return None;
    }
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        *budget = budget.checked_sub(1)?;
        if c.len() > 4 * MAX_WORD {
            continue;
        }
        let cl: Vec<char> = c.to_lowercase().chars().collect();
        let limit = (w.len().max(cl.len()) / 3).max(1);
        // The distance is at least the difference in length.
        if w.len().abs_diff(cl.len()) > limit {
            continue;
        }
        *budget = budget.checked_sub((w.len() + 1) * (cl.len() + 1))?;
        let d = edit_distance(&w, &cl);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

fn edit_distance(a: &[char], b: &[char]) -> usize {
    // Optimal string alignment distance: an adjacent swap ("Kign" -> "King") is one edit.
    // Three rows of the table suffice: the current one and the two before.
    let mut before = vec![0usize; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0usize; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(before[j - 2] + 1);
            }
            cur[j] = v;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_or_a_missing_letter_is_one_edit() {
        let d = |a: &str, b: &str| {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            edit_distance(&a, &b)
        };
        assert_eq!(d("Kign", "King"), 1);
        assert_eq!(d("thron", "throne"), 1);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("same", "same"), 0);
        assert_eq!(d("abcdef", "badcfe"), 3);
        assert_eq!(d("kitten", "sitting"), 3);
    }

    #[test]
    fn suggestions_are_close_and_case_blind() {
        assert_eq!(suggest("kign", ["King", "Queen"]), Some("King"));
        assert_eq!(suggest("thron", ["throne", "edge"]), Some("throne"));
        assert_eq!(suggest("Bishop", ["King", "Queen"]), None);
        // Short words need a near match: one edit at most.
        assert_eq!(suggest("ab", ["xy"]), None);
    }

    #[test]
    fn suggestions_stop_when_the_budget_is_spent() {
        let mut budget = 1000;
        assert_eq!(suggest_within("kign", ["King"], &mut budget), Some("King"));
        assert_eq!(budget, 1000 - 1 - 25);
        let mut budget = 10;
        assert_eq!(suggest_within("kign", ["King"], &mut budget), None);
        let long = "x".repeat(100);
        assert_eq!(suggest(&long, [long.as_str()]), None);
    }
}
