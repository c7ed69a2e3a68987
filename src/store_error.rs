//! What can go wrong with a database of the inboxes' (this machine's inbox's, a team inbox's),
//! as a type: a server answers each kind as it should (a call that failed may be tried again;
//! a database of another program's never becomes an inbox's), and the command says the
//! sentence each carries.

use std::fmt;

/// Why an inbox's database could not do what it was asked. Each kind carries the
/// sentence that says so, naming the database and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreError {
    /// There is no inbox's database where one was named, and none was to be made there
    /// (a mistyped path?).
    Missing(String),
    /// What is there is another program's (its file, its tables): it is left as it was.
    Foreign(String),
    /// The database's layout is not one this version may use: a newer one, or, for reading
    /// only, any other.
    Layout(String),
    /// The database cannot be reached, opened or read: a connection refused, a file's
    /// permissions, an address that does not read.
    Unreachable(String),
    /// A statement failed, in the database's own words (a lost connection, a deadlock, a full
    /// disk): the call may succeed when tried again.
    Failed(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Missing(why)
            | StoreError::Foreign(why)
            | StoreError::Layout(why)
            | StoreError::Unreachable(why)
            | StoreError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for StoreError {}
