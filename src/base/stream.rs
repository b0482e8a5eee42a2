//! A stream of jobs answered on every core, the answers handed on in the jobs' order: what a
//! JSONL batch needs to use the machine and still write each answer on its case's line.
//!
//! One thread reads (the caller's), the machine's cores answer, one thread writes. Memory stays
//! flat in the length of the stream: the jobs read and not yet written weigh at most a budget
//! together (a job heavier than the budget runs alone), and the reader waits while they do.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Condvar, Mutex, mpsc};

use super::parallel::lock;

/// What the writer is handed.
pub enum Delivery<A> {
    /// The next answer, in the jobs' order.
    Answer(A),
    /// Every job read so far is written: the reader may wait for input now, so what was written
    /// should reach whoever waits for it.
    CaughtUp,
}

/// Why a stream stopped before its end.
#[derive(Debug, PartialEq, Eq)]
pub enum Stopped<E> {
    /// Reading failed; every job read before was answered and written.
    Reading(E),
    /// Writing failed; nothing more was written.
    Writing(E),
}

/// Reads jobs with `read` (a job and its weight, `None` at the end), answers each with
/// `answer` on `workers` threads (on the caller's alone when it is 1), and hands the answers to
/// `write` in the order the jobs were read. The jobs in flight weigh at most `budget` together,
/// unless one alone weighs more.
pub fn map_ordered<J: Send, A: Send, E: Send>(
    workers: usize,
    budget: usize,
    mut read: impl FnMut() -> Result<Option<(J, usize)>, E>,
    answer: impl Fn(J) -> A + Sync,
    mut write: impl FnMut(Delivery<A>) -> Result<(), E> + Send,
) -> Result<(), Stopped<E>> {
    if workers < 2 {
        loop {
            match read() {
                Ok(Some((job, _))) => {
                    write(Delivery::Answer(answer(job))).map_err(Stopped::Writing)?;
                    write(Delivery::CaughtUp).map_err(Stopped::Writing)?;
                }
                Ok(None) => return Ok(()),
                Err(e) => return Err(Stopped::Reading(e)),
            }
        }
    }
    let flight = Flight { budget, state: Mutex::default(), freed: Condvar::new() };
    let (job_sender, jobs) = mpsc::sync_channel::<(u64, usize, J)>(2 * workers);
    let jobs = Mutex::new(jobs);
    let (answer_sender, answers) = mpsc::channel::<(u64, usize, A)>();
    let panicked = Mutex::new(None);
    // Answers a job, or keeps its panic to raise once every thread is done, so that no thread
    // waits for an answer that will never come.
    let answer_caught = |job| {
        catch_unwind(AssertUnwindSafe(|| answer(job))).map_err(|payload| {
            lock(&panicked).get_or_insert(payload);
            flight.stop();
        })
    };
    let (read_result, written) = std::thread::scope(|scope| {
        for _ in 0..workers {
            let answer_sender = answer_sender.clone();
            let (jobs, answer_caught) = (&jobs, &answer_caught);
            scope.spawn(move || {
                loop {
                    // Taken on its own line, so that the lock is let go before the job runs.
                    let next = lock(jobs).recv();
                    let Ok((number, weight, job)) = next else { return };
                    let Ok(answered) = answer_caught(job) else { return };
                    if answer_sender.send((number, weight, answered)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(answer_sender);
        let flight = &flight;
        let writer = scope.spawn(move || {
            let mut waiting = BTreeMap::new();
            let mut next = 0;
            for (number, weight, answered) in answers {
                waiting.insert(number, (weight, answered));
                while let Some((weight, answered)) = waiting.remove(&next) {
                    next += 1;
                    let written = write(Delivery::Answer(answered)).and_then(|()| match flight.release(weight) {
                        true => write(Delivery::CaughtUp),
                        false => Ok(()),
                    });
                    if let Err(e) = written {
                        flight.stop();
                        return Err(e);
                    }
                }
            }
            Ok(())
        });
        let mut number = 0;
        let read_result = loop {
            match read() {
                Ok(Some((job, weight))) => {
                    if !flight.admit(weight) || job_sender.send((number, weight, job)).is_err() {
                        break Ok(());
                    }
                    number += 1;
                }
                Ok(None) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        drop(job_sender);
        (read_result, writer.join().unwrap_or_else(|payload| resume_unwind(payload)))
    });
    if let Some(payload) = panicked.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()) {
        resume_unwind(payload);
    }
    written.map_err(Stopped::Writing)?;
    read_result.map_err(Stopped::Reading)
}

/// The jobs read and not yet written.
struct Flight {
    budget: usize,
    state: Mutex<InFlight>,
    /// Signalled when a job is written or the stream stops.
    freed: Condvar,
}

#[derive(Default)]
struct InFlight {
    weight: usize,
    jobs: usize,
    stopped: bool,
}

impl Flight {
    /// Waits until a job of `weight` fits the budget (or nothing else is in flight) and counts it
    /// in; `false` when the stream stopped.
    fn admit(&self, weight: usize) -> bool {
        let mut state = lock(&self.state);
        while !state.stopped && state.jobs > 0 && state.weight + weight > self.budget {
            state = self.freed.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        if state.stopped {
            return false;
        }
        state.weight += weight;
        state.jobs += 1;
        true
    }

    /// Counts a written job out; `true` when no job is left in flight.
    fn release(&self, weight: usize) -> bool {
        let mut state = lock(&self.state);
        state.weight -= weight;
        state.jobs -= 1;
        self.freed.notify_one();
        state.jobs == 0
    }

    fn stop(&self) {
        lock(&self.state).stopped = true;
        self.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `map_ordered` over `jobs` (each `Err` a read failure), answering by doubling; the
    /// writer fails on the answer `fail_on`. Returns what was written and how it ended.
    fn run(
        workers: usize,
        jobs: Vec<Result<u64, &'static str>>,
        budget: usize,
        fail_on: Option<u64>,
    ) -> (Vec<u64>, Result<(), Stopped<&'static str>>) {
        let mut jobs = jobs.into_iter();
        let written = Mutex::new(Vec::new());
        let ended = map_ordered(
            workers,
            budget,
            || jobs.next().transpose().map(|job| job.map(|n| (n, 10))),
            |n| n * 2,
            |delivery| match delivery {
                Delivery::Answer(a) if Some(a) == fail_on => Err("closed"),
                Delivery::Answer(a) => {
                    lock(&written).push(a);
                    Ok(())
                }
                Delivery::CaughtUp => Ok(()),
            },
        );
        (written.into_inner().unwrap(), ended)
    }

    /// One thread (the caller's), and more than there are cores here.
    const WORKERS: [usize; 3] = [1, 2, 3];

    #[test]
    fn answers_come_in_the_order_of_their_jobs_whatever_the_budget() {
        let jobs: Vec<u64> = (0..2_000).collect();
        let doubled: Vec<u64> = jobs.iter().map(|n| n * 2).collect();
        for (workers, budget) in WORKERS.into_iter().flat_map(|w| [0, 15, 100, usize::MAX].map(|b| (w, b))) {
            let (written, ended) = run(workers, jobs.iter().copied().map(Ok).collect(), budget, None);
            assert_eq!((written, ended), (doubled.clone(), Ok(())), "{workers} workers, budget {budget}");
        }
        assert_eq!(run(2, Vec::new(), 100, None), (Vec::new(), Ok(())));
    }

    #[test]
    fn a_read_failure_ends_the_stream_after_what_was_read_is_written() {
        for workers in WORKERS {
            let jobs = vec![Ok(1), Ok(2), Ok(3), Err("unreadable"), Ok(4)];
            let expected = (vec![2, 4, 6], Err(Stopped::Reading("unreadable")));
            assert_eq!(run(workers, jobs, 100, None), expected, "{workers} workers");
        }
    }

    #[test]
    fn a_write_failure_stops_reading_and_writing() {
        for workers in WORKERS {
            let (written, ended) = run(workers, (0..10_000).map(Ok).collect(), 1_000, Some(20));
            let expected = ((0..10).map(|n| n * 2).collect(), Err(Stopped::Writing("closed")));
            assert_eq!((written, ended), expected, "{workers} workers");
        }
    }

    #[test]
    fn a_panicking_job_panics_the_stream_instead_of_hanging_it() {
        for workers in WORKERS {
            let mut jobs = 0..1_000u64;
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                map_ordered::<_, _, ()>(
                    workers,
                    50,
                    || Ok(jobs.next().map(|n| (n, 10))),
                    |n| assert_ne!(n, 500, "job 500 fails"),
                    |_| Ok(()),
                )
            }));
            assert!(outcome.is_err(), "{workers} workers");
        }
    }

    #[test]
    fn the_jobs_in_flight_stay_within_the_budget() {
        // Two jobs of 60 exceed the budget of 100: one runs at a time. The reader counts a job
        // before it waits to send it, so its count runs one job ahead: 120 at most.
        let in_flight = Mutex::new((0usize, 0usize));
        let mut jobs = 0..300u64;
        map_ordered::<_, _, ()>(
            2,
            100,
            || {
                Ok(jobs.next().map(|n| {
                    let mut flight = lock(&in_flight);
                    flight.0 += 60;
                    flight.1 = flight.1.max(flight.0);
                    (n, 60)
                }))
            },
            |n| n,
            |delivery| {
                if let Delivery::Answer(_) = delivery {
                    lock(&in_flight).0 -= 60;
                }
                Ok(())
            },
        )
        .unwrap();
        let most = lock(&in_flight).1;
        assert!(most <= 120, "{most}");
    }
}
