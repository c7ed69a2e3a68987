//! What is secret: one rule for every question, whatever its kind and whichever dialect or MCP
//! form asked it. A question is secret when the request marks it so (`secret`, `isSecret`,
//! `password`, `writeOnly`, `format: "password"`) or when its name (a question's id, a form
//! field's property name) says it holds one: `password`, `apiKey`, `client_secret`,
//! `access_token`. Agents and schemas written by hand rarely mark such fields, and a secret
//! must not be echoed, drawn at the review or written to a journal even when they forgot to.
//!
//! What a secret hides is what the person types: a text answer, and the typed "Something else"
//! of a choice question. Picks are the agent's own options, and a yes/no hides nothing.

use crate::model::*;

/// Words that name a secret on their own: `password`, `pin`, `token` (but not `tokens`, which
/// counts a model's tokens).
const WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "passcode",
    "pwd",
    "secret",
    "token",
    "apikey",
    "credential",
    "credentials",
    "otp",
    "totp",
    "hotp",
    "pin",
    "cvv",
    "cvc",
];

/// Endings that name a secret when words are written together: `newpassword`, `clientsecret`,
/// `accesstoken`, `xapikey`. Only endings no everyday word has (not `pin`, as in `spin`).
const ENDINGS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "passcode",
    "secret",
    "token",
    "apikey",
    "privatekey",
    "secretkey",
    "credentials",
];

/// Words that make a secret key of the `key` after them: `api_key`, `privateKey`.
const KEY_KINDS: &[&str] = &[
    "api",
    "private",
    "secret",
    "access",
    "encryption",
    "signing",
    "master",
];

/// Last words that make a name about a secret rather than the secret itself: `token_url`,
/// `password_length`, `access_key_id`, `secret_name`.
const ABOUT: &[&str] = &[
    "id",
    "name",
    "type",
    "kind",
    "url",
    "uri",
    "endpoint",
    "path",
    "file",
    "length",
    "count",
    "limit",
    "hint",
    "expiry",
    "expiration",
    "ttl",
    "format",
    "policy",
];

/// Whether `name` (an id, a property name) says it holds a secret. It is read as words, split
/// at `_`, `-`, `.`, spaces and camelCase (`APIKey` is `api key`), so that `tokenizer`,
/// `broken` and `pinned` are not secrets, while `api_key`, `apiKey`, `X-Api-Key`, `apikey`,
/// `clientSecret`, `access_token` and `sim_pin` are.
pub fn names_a_secret(name: &str) -> bool {
    let words = words(name);
    if words
        .last()
        .is_some_and(|last| ABOUT.contains(&last.as_str()))
    {
        return false;
    }
    let key_of_a_kind = words
        .windows(2)
        .any(|pair| pair[1] == "key" && KEY_KINDS.contains(&pair[0].as_str()));
    key_of_a_kind
        || words.iter().any(|word| {
            WORDS.contains(&word.as_str()) || ENDINGS.iter().any(|end| word.ends_with(end))
        })
}

/// `name` in lower-case words: split at every ASCII character that is not a letter or digit,
/// around runs of digits (`password2`), and where case changes from lower to upper (`apiKey`)
/// or an upper-case run ends (`APIKey`). Names are ASCII in practice; another character is
/// kept in its word as it is (so the plugin carries no Unicode case tables for this).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii() && !c.is_ascii_alphanumeric() {
            words.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            continue;
        }
        let previous = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1);
        let starts_word = previous.is_some_and(|p| {
            p.is_ascii_digit() != c.is_ascii_digit()
                || (c.is_ascii_uppercase()
                    && (p.is_ascii_lowercase() || next.is_some_and(char::is_ascii_lowercase)))
        });
        if starts_word && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        word.push(c.to_ascii_lowercase());
    }
    words.extend((!word.is_empty()).then_some(word));
    words
}

/// Whether `question` is secret: `marked` so by its request (for the kinds whose model has no
/// flag of its own), its text question's own flag, or its id. Only a question where the person
/// types is: a text question, or a choice that takes a typed answer.
pub fn is_secret(question: &Question, marked: bool) -> bool {
    let typed = match &question.kind {
        QuestionKind::Text(t) => return t.secret || marked || names_a_secret(&question.id),
        QuestionKind::Select(s) => s.other,
        QuestionKind::MultiSelect(m) => m.other,
        QuestionKind::Confirm(_) | QuestionKind::Number(_) => false,
    };
    typed && (marked || names_a_secret(&question.id))
}

/// Which of `questions` are secret, by position; `marked` holds the request's own marks by
/// position (shorter, or empty, where it marks none).
pub fn of(questions: &[Question], marked: &[bool]) -> Vec<bool> {
    questions
        .iter()
        .enumerate()
        .map(|(i, q)| is_secret(q, marked.get(i).copied().unwrap_or(false)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_as_words_in_every_case_style() {
        let cases = [
            ("apiKey", &["api", "key"][..]),
            ("APIKey", &["api", "key"]),
            ("X-Api-Key", &["x", "api", "key"]),
            ("OPENAI_API_KEY", &["openai", "api", "key"]),
            ("client.secret", &["client", "secret"]),
            ("oauth2Token", &["oauth", "2", "token"]),
            ("newPassword2", &["new", "password", "2"]),
            ("clé_secret", &["clé", "secret"]),
            ("", &[]),
        ];
        for (name, expected) in cases {
            assert_eq!(words(name), expected, "{name}");
        }
    }

    #[test]
    fn names_that_hold_a_secret() {
        for name in [
            "password",
            "newPassword",
            "admin_passphrase",
            "passwd",
            "pwd",
            "api_key",
            "apiKey",
            "X-API-KEY",
            "apikey",
            "token",
            "access_token",
            "accessToken",
            "githubToken",
            "refreshtoken",
            "secret",
            "client_secret",
            "clientSecret",
            "aws_secret_access_key",
            "private_key",
            "sshPrivateKey",
            "credentials",
            "db_credential",
            "otp",
            "totp_code",
            "pin",
            "sim_pin",
            "pin_code",
            "card_cvv",
            "passcode",
            "password_confirmation",
            "password2",
        ] {
            assert!(names_a_secret(name), "{name} should be a secret");
        }
    }

    #[test]
    fn names_that_only_look_like_one() {
        for name in [
            "tokenizer",
            "max_tokens",
            "broken",
            "pinned",
            "spin",
            "pinpoint",
            "passport",
            "bypass",
            "secretary",
            "keyboard",
            "public_key",
            "sort_key",
            "token_url",
            "token_type",
            "password_length",
            "access_key_id",
            "secret_name",
            "credentials_file",
            "private_key_path",
            "name",
            "",
        ] {
            assert!(!names_a_secret(name), "{name} should not be a secret");
        }
    }

    #[test]
    fn only_what_the_person_types_is_secret() {
        let question = |id: &str, kind: QuestionKind| Question {
            id: id.into(),
            header: None,
            prompt: "?".into(),
            required: true,
            kind,
        };
        let select = |other| {
            QuestionKind::Select(SelectQuestion {
                options: vec![Choice::plain("a")],
                default: None,
                other,
                discuss: false,
                notes: false,
            })
        };
        let text = |secret| {
            QuestionKind::Text(TextQuestion {
                multiline: false,
                placeholder: None,
                default: None,
                min_length: None,
                max_length: None,
                secret,
                format: None,
                pattern: None,
            })
        };
        assert!(is_secret(&question("q1", text(true)), false));
        assert!(is_secret(&question("api_key", text(false)), false));
        assert!(!is_secret(&question("q1", text(false)), false));
        assert!(is_secret(&question("q1", select(true)), true));
        assert!(is_secret(&question("token", select(true)), false));
        assert!(!is_secret(&question("token", select(false)), true));
        let confirm = QuestionKind::Confirm(ConfirmQuestion { default: None });
        assert!(!is_secret(&question("remember_password", confirm), true));
        assert_eq!(
            of(
                &[question("q1", select(true)), question("pwd", text(false))],
                &[true]
            ),
            [true, true]
        );
    }
}
