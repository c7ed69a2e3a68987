//! The rules every request meets before anything is shown, typed or JSON alike. Each error
//! names the exact place (`questions[1].options[2].label`) and says what to do.

use rustc_hash::FxHashMap;

use crate::decimal::Decimal;
use crate::limits::*;
use crate::model::*;
use crate::quoted::Quoted;

/// Whether a request may hold `count` questions; the problem in words if not. Checked before
/// the questions are read, so that a huge batch costs nothing.
pub fn question_count(count: usize) -> Result<(), String> {
    match count {
        0 => Err("is empty: give at least one question".into()),
        n if n > MAX_QUESTIONS => Err(format!(
            "has {n} questions; at most {MAX_QUESTIONS} fit in one request"
        )),
        _ => Ok(()),
    }
}

/// Checks questions, each with the path it has in the request (empty for a top-level question).
pub fn questions<'a>(
    items: impl ExactSizeIterator<Item = (&'a str, &'a Question)>,
) -> Result<(), RequestError> {
    question_count(items.len()).map_err(|message| RequestError::at("questions", message))?;
    let mut ids: FxHashMap<&str, &str> = FxHashMap::default();
    let mut total_options = 0;
    for (path, question) in items {
        if let Some(first) = ids.insert(&question.id, path) {
            return Err(RequestError::at(
                join(path, "id"),
                format!(
                    "{} is already the id of {first}; ids must be unique",
                    Quoted(&question.id)
                ),
            ));
        }
        self::question(path, question)?;
        total_options += question.kind.options().len();
        if total_options > MAX_TOTAL_OPTIONS {
            return Err(RequestError::at(
                join(path, "options"),
                format!("brings the request to more than {MAX_TOTAL_OPTIONS} options in all"),
            ));
        }
    }
    Ok(())
}

fn question(path: &str, q: &Question) -> Result<(), RequestError> {
    text(path, "id", &q.id, MAX_SHORT_CHARS)?;
    text(path, "question", &q.prompt, MAX_PROMPT_CHARS)?;
    if let Some(header) = &q.header {
        length(path, "header", header, MAX_SHORT_CHARS)?;
    }
    match &q.kind {
        QuestionKind::Text(t) => text_question(path, t),
        QuestionKind::Select(s) => {
            options(path, &s.options)?;
            if let Some(d) = s.default {
                index(path, "default", d, s.options.len())?;
            }
            Ok(())
        }
        QuestionKind::MultiSelect(m) => multi_select(path, m),
        QuestionKind::Confirm(_) => Ok(()),
        QuestionKind::Number(n) => number(path, n),
    }
}

/// Where a field is: written out only for an error, since a list may hold thousands of items.
trait Place: Copy {
    fn written(&self) -> String;
}

impl Place for &str {
    fn written(&self) -> String {
        self.to_string()
    }
}

impl<F: Fn() -> String + Copy> Place for F {
    fn written(&self) -> String {
        self()
    }
}

/// A text that must say something and fit its limit.
fn text(path: impl Place, field: &str, value: &str, limit: usize) -> Result<(), RequestError> {
    says_something(path, field, !crate::visible::is_blank(value))?;
    length(path, field, value, limit)
}

fn says_something(path: impl Place, field: &str, shows: bool) -> Result<(), RequestError> {
    if shows {
        return Ok(());
    }
    Err(RequestError::at(
        join(&path.written(), field),
        "is empty: it must say something",
    ))
}

fn length(path: impl Place, field: &str, value: &str, limit: usize) -> Result<(), RequestError> {
    // No text has more characters than bytes: most need no counting.
    if value.len() <= limit {
        return Ok(());
    }
    let chars = value.chars().count();
    if chars > limit {
        return Err(RequestError::at(
            join(&path.written(), field),
            format!("is {chars} characters long; the limit is {limit}"),
        ));
    }
    Ok(())
}

fn index(path: &str, field: &str, index: u32, count: usize) -> Result<(), RequestError> {
    if index as usize >= count {
        return Err(RequestError::at(
            join(path, field),
            format!("is option {index}, but there are only {count} options (counted from 0)"),
        ));
    }
    Ok(())
}

fn text_question(path: &str, t: &TextQuestion) -> Result<(), RequestError> {
    for (field, value) in [("placeholder", &t.placeholder), ("default", &t.default)] {
        if let Some(value) = value {
            length(path, field, value, MAX_LONG_CHARS)?;
        }
    }
    if let (Some(min), Some(max)) = (t.min_length, t.max_length)
        && min > max
    {
        return Err(RequestError::at(
            join(path, "min_length"),
            format!("is {min}, more than max_length ({max})"),
        ));
    }
    if let (Some(default), Some(max)) = (&t.default, t.max_length)
        && default.chars().count() > max as usize
    {
        return Err(RequestError::at(
            join(path, "default"),
            format!("is longer than max_length ({max})"),
        ));
    }
    if let (Some(default), Some(format)) = (&t.default, t.format)
        && !crate::text_format::fits(format, default)
    {
        return Err(RequestError::at(
            join(path, "default"),
            format!("is not {}", crate::text_format::wanted(format)),
        ));
    }
    if let Some(pattern) = &t.pattern {
        length(path, "pattern", pattern, MAX_LONG_CHARS)?;
        let regex = crate::text_pattern::compile(pattern)
            .map_err(|reason| RequestError::at(join(path, "pattern"), reason))?;
        if let Some(default) = t.default.as_ref().filter(|d| !regex.is_match(d)) {
            return Err(RequestError::at(
                join(path, "default"),
                format!("{} does not match the pattern {pattern}", Quoted(default)),
            ));
        }
    }
    Ok(())
}

fn options(path: &str, options: &[Choice]) -> Result<(), RequestError> {
    let here = join(path, "options");
    if options.is_empty() {
        return Err(RequestError::at(here, "is empty: give at least one option"));
    }
    if options.len() > MAX_OPTIONS {
        return Err(RequestError::at(
            here,
            format!("has {} options; the limit is {MAX_OPTIONS}", options.len()),
        ));
    }
    let mut labels: FxHashMap<crate::visible::Comparable, usize> =
        FxHashMap::with_capacity_and_hasher(options.len(), Default::default());
    // Where every value is its label (options sent as plain strings), labels that differ as a
    // person sees them differ as values too: only values of their own need a map of their own.
    let own_values = options.iter().any(|o| o.value != o.label);
    let mut values: FxHashMap<&str, usize> = FxHashMap::with_capacity_and_hasher(
        if own_values { options.len() } else { 0 },
        Default::default(),
    );
    for (i, option) in options.iter().enumerate() {
        let at = || format!("{here}[{i}]");
        // A label is blank exactly when its comparable form is empty: one pass over it, not two.
        let label = crate::visible::comparable(&option.label);
        says_something(at, "label", !label.is_empty())?;
        length(at, "label", &option.label, MAX_SHORT_CHARS)?;
        length(at, "value", &option.value, MAX_SHORT_CHARS)?;
        if let Some(description) = &option.description {
            length(at, "description", description, MAX_LONG_CHARS)?;
        }
        // Labels are compared as a person sees them, who may also type one to pick it.
        if let Some(first) = labels.insert(label, i) {
            return Err(RequestError::at(
                join(&at(), "label"),
                format!(
                    "{} is also the label of option {first}; labels must differ",
                    Quoted(&option.label)
                ),
            ));
        }
        if let Some(first) = own_values
            .then(|| values.insert(&option.value, i))
            .flatten()
        {
            return Err(RequestError::at(
                join(&at(), "value"),
                format!(
                    "{} is also the value of option {first}; values must differ",
                    Quoted(&option.value)
                ),
            ));
        }
    }
    Ok(())
}

fn multi_select(path: &str, m: &MultiSelectQuestion) -> Result<(), RequestError> {
    options(path, &m.options)?;
    let mut seen = Vec::new();
    for &d in &m.defaults {
        index(path, "default", d, m.options.len())?;
        if seen.contains(&d) {
            return Err(RequestError::at(
                join(path, "default"),
                format!("names option {d} twice"),
            ));
        }
        seen.push(d);
    }
    let available = m.options.len() + usize::from(m.other);
    if let Some(min) = m.min_picks
        && min as usize > available
    {
        return Err(RequestError::at(
            join(path, "min_picks"),
            format!("is {min}, but there are only {available} entries to pick"),
        ));
    }
    if let Some(max) = m.max_picks {
        if max == 0 {
            return Err(RequestError::at(
                join(path, "max_picks"),
                "is 0: allow at least one pick",
            ));
        }
        if let Some(min) = m.min_picks.filter(|min| *min > max) {
            return Err(RequestError::at(
                join(path, "min_picks"),
                format!("is {min}, more than max_picks ({max})"),
            ));
        }
        if m.defaults.len() > max as usize {
            return Err(RequestError::at(
                join(path, "default"),
                format!(
                    "ticks {} options, more than max_picks ({max})",
                    m.defaults.len()
                ),
            ));
        }
    }
    Ok(())
}

fn number(path: &str, n: &NumberQuestion) -> Result<(), RequestError> {
    if let (Some(min), Some(max)) = (n.min, n.max) {
        if min > max {
            return Err(RequestError::at(
                join(path, "min"),
                format!("is {}, more than max ({})", Decimal(min), Decimal(max)),
            ));
        }
        if n.integer && min.ceil() > max.floor() {
            return Err(RequestError::at(
                join(path, "min"),
                format!(
                    "no whole number lies between {} and {}",
                    Decimal(min),
                    Decimal(max)
                ),
            ));
        }
    }
    let lowest = [(n.min, "min"), (n.exclusive_min, "exclusive_min")];
    let highest = [(n.max, "max"), (n.exclusive_max, "exclusive_max")];
    for (low, low_name) in lowest {
        for (high, high_name) in highest {
            let (Some(low), Some(high)) = (low, high) else {
                continue;
            };
            let both_inclusive = low_name == "min" && high_name == "max";
            if low > high || (low == high && !both_inclusive) {
                return Err(RequestError::at(
                    join(path, low_name),
                    format!(
                        "is {}: no number lies between it and {high_name} ({})",
                        Decimal(low),
                        Decimal(high)
                    ),
                ));
            }
        }
    }
    for (field, value) in [
        ("min", n.min),
        ("max", n.max),
        ("exclusive_min", n.exclusive_min),
        ("exclusive_max", n.exclusive_max),
        ("default", n.default),
    ] {
        if value.is_some_and(|v| !v.is_finite()) {
            return Err(RequestError::at(
                join(path, field),
                "must be a finite number",
            ));
        }
    }
    if let Some(default) = n.default
        && let Some(problem) = crate::judge::number_problem(n, default)
    {
        return Err(RequestError::at(
            join(path, "default"),
            format!("{} {problem}", Decimal(default)),
        ));
    }
    Ok(())
}
