//! A PostgreSQL database of a test's own, on the server `INTERVIEW_TEST_POSTGRES` names (a URL
//! whose user may create databases; CI sets it), dropped after the test.
#![allow(dead_code)] // each test binary uses its own share of these

/// A database made for one test.
pub struct Database {
    admin: String,
    name: String,
    /// The database's URL.
    pub url: String,
}

impl Database {
    /// `None` when no server is given.
    pub fn create() -> Option<Database> {
        let admin = std::env::var("INTERVIEW_TEST_POSTGRES").ok()?;
        let mut bytes = [0u8; 6];
        getrandom::fill(&mut bytes).unwrap();
        let suffix: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let name = format!("interview_test_{suffix}");
        let mut client = postgres::Client::connect(&admin, postgres::NoTls)
            .unwrap_or_else(|e| panic!("INTERVIEW_TEST_POSTGRES: {e}"));
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        let url = with_database(&admin, &name);
        Some(Database { admin, name, url })
    }
}

impl Database {
    /// Runs `sql` on the database, behind the back of whatever serves it.
    pub fn execute(&self, sql: &str) {
        let mut client = postgres::Client::connect(&self.url, postgres::NoTls).unwrap();
        client.batch_execute(sql).unwrap();
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        if let Ok(mut client) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let drop = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
            let _ = client.batch_execute(&drop);
        }
    }
}

/// `url` naming the database `name` instead of its own.
pub fn with_database(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    let query = tail.find('?').map_or("", |at| &tail[at..]);
    format!("{scheme}://{authority}/{name}{query}")
}

#[test]
fn a_url_is_given_another_database_and_keeps_the_rest() {
    assert_eq!(
        with_database("postgres://u:p@h:5432/postgres?sslmode=disable", "t"),
        "postgres://u:p@h:5432/t?sslmode=disable"
    );
    assert_eq!(
        with_database("postgresql://u@%2Ftmp", "t"),
        "postgresql://u@%2Ftmp/t"
    );
}
