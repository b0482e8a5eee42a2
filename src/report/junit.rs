//! JUnit XML, the test-report format CI systems display (via `quick-junit`).

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

/// One test case: passed, or failed with a message and a longer body (e.g. a diff).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    pub name: String,
    pub classname: Option<String>,
    pub failure: Option<Failure>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    pub body: String,
}

/// A named group of cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suite {
    pub name: String,
    pub cases: Vec<Case>,
}

/// The XML document for `suites` under one report named `report_name`. Characters XML cannot
/// carry (controls, U+FFFE, U+FFFF) are written as visible escapes.
pub fn write(report_name: &str, suites: &[Suite]) -> Result<String, quick_junit::SerializeError> {
    use crate::base::escape::{block, visible};
    let mut report = Report::new(report_name);
    for suite in suites {
        let mut test_suite = TestSuite::new(visible(&suite.name).as_ref());
        for case in &suite.cases {
            let status = match &case.failure {
                None => TestCaseStatus::success(),
                Some(failure) => {
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    status
                        .set_message(visible(&failure.message).as_ref())
                        .set_description(block(&failure.body).as_ref());
                    status
                }
            };
            let mut test_case = TestCase::new(visible(&case.name).as_ref(), status);
            if let Some(classname) = &case.classname {
                test_case.set_classname(visible(classname).as_ref());
            }
            test_suite.add_test_case(test_case);
        }
        report.add_test_suite(test_suite);
    }
    report.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_carry_message_and_body() {
        let suite = Suite {
            name: "policy".into(),
            cases: vec![
                Case { name: "ok".into(), classname: None, failure: None },
                Case {
                    name: "bad <one>".into(),
                    classname: Some("suite.yaml".into()),
                    failure: Some(Failure { message: "tools differ".into(), body: "-exec\n+read".into() }),
                },
            ],
        };
        let xml = write("clawpolicy", &[suite]).unwrap();
        assert!(xml.contains(r#"tests="2""#), "{xml}");
        assert!(xml.contains(r#"failures="1""#), "{xml}");
        assert!(xml.contains("bad &lt;one&gt;"), "{xml}");
        assert!(xml.contains(r#"message="tools differ""#), "{xml}");
    }

    #[test]
    fn characters_xml_cannot_carry_are_escaped() {
        let case = |name: &str| Case { name: name.into(), classname: Some("c\u{ffff}".into()), failure: None };
        let suite = Suite { name: "s\u{fffe}".into(), cases: vec![case("group \u{1b}[31m\0")] };
        let xml = write("clawpolicy", &[suite]).unwrap();
        assert!(!xml.chars().any(|c| c == '\u{fffe}' || c == '\u{ffff}' || c == '\u{1b}' || c == '\0'), "{xml}");
        assert!(xml.contains("group \\u{1b}[31m\\u{0}"), "{xml}");
    }
}
