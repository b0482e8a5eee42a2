//! JUnit XML, which most CI systems render as a test report: one test suite per group (a rule,
//! a suite file), one test case per checked item.

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

/// A checked item: passed, or failed with a message and details.
pub struct Case {
    pub name: String,
    pub classname: String,
    pub failure: Option<Failure>,
}

pub struct Failure {
    pub message: String,
    pub kind: String,
    pub details: String,
}

/// Renders named groups of cases as one JUnit report.
pub fn render(report_name: &str, suites: Vec<(String, Vec<Case>)>) -> String {
    let mut report = Report::new(report_name);
    for (name, cases) in suites {
        let mut suite = TestSuite::new(name);
        for case in cases {
            let status = match case.failure {
                None => TestCaseStatus::success(),
                Some(failure) => {
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    status.set_message(failure.message).set_type(failure.kind).set_description(failure.details);
                    status
                }
            };
            let mut test_case = TestCase::new(case.name, status);
            test_case.set_classname(case.classname);
            suite.add_test_case(test_case);
        }
        report.add_test_suite(suite);
    }
    // Serializing an in-memory report only fails on I/O, which a String cannot have.
    report.to_string().unwrap_or_default()
}
