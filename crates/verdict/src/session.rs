//! What pressing Run does, as a pure state machine a front end drives: a Run
//! starts at once when none is in flight; pressed during one, it waits, and
//! the newest waiting Run replaces older ones; a Run that finishes while a
//! newer one waits is dropped, so results never interleave and never show
//! code older than the newest press.
//!
//! The page holds one [`Session`] per puzzle page, starts judging whatever
//! [`Session::press_run`] and [`Session::finish`] hand back, and draws
//! [`Session::state`]. `T` is what a finished Run leaves (the page's results
//! and report), `E` what a Run that could not judge leaves (the page's
//! message saying what happened and what to do).

/// Where the current Run stands.
#[derive(Debug, Clone, PartialEq)]
pub enum RunState<T, E> {
    /// Not run yet.
    Idle,
    /// Running; `queued` when another Run is waiting behind it.
    Running {
        /// A newer Run waits for this one to finish.
        queued: bool,
    },
    /// Finished.
    Done(T),
    /// Our own failure (no WebGPU, lost device), with what to do.
    Error(E),
}

/// The Run state of one puzzle page, and the source of a Run waiting
/// behind the one in flight.
#[derive(Debug, Clone, PartialEq)]
pub struct Session<T, E> {
    state: RunState<T, E>,
    waiting: Option<String>,
}

impl<T, E> Default for Session<T, E> {
    fn default() -> Self {
        Session { state: RunState::Idle, waiting: None }
    }
}

impl<T, E> Session<T, E> {
    /// A session before the first Run.
    pub fn new() -> Self {
        Self::default()
    }

    /// Where the current Run stands.
    pub fn state(&self) -> &RunState<T, E> {
        &self.state
    }

    /// Run pressed with the editor's `source`. Returns the source to judge
    /// now, or `None` when a Run is in flight: then this one waits,
    /// replacing any that waited before.
    pub fn press_run(&mut self, source: String) -> Option<String> {
        if matches!(self.state, RunState::Running { .. }) {
            self.waiting = Some(source);
            self.state = RunState::Running { queued: true };
            None
        } else {
            self.state = RunState::Running { queued: false };
            Some(source)
        }
    }

    /// The Run in flight finished with `result`. When a newer Run waits,
    /// `result` is dropped and the waiting source comes back, to be judged
    /// next; otherwise the state becomes [`RunState::Done`] or
    /// [`RunState::Error`] and `None` comes back. A result with no Run in
    /// flight (a page that went away and came back) is dropped.
    pub fn finish(&mut self, result: Result<T, E>) -> Option<String> {
        if !matches!(self.state, RunState::Running { .. }) {
            return None;
        }
        if let Some(next) = self.waiting.take() {
            self.state = RunState::Running { queued: false };
            return Some(next);
        }
        self.state = match result {
            Ok(done) => RunState::Done(done),
            Err(e) => RunState::Error(e),
        };
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_starts_at_once_and_ends_done_or_in_error() {
        let mut s = Session::<u32, String>::new();
        assert_eq!(s.state(), &RunState::Idle);
        assert_eq!(s.press_run("a".into()).as_deref(), Some("a"));
        assert_eq!(s.state(), &RunState::Running { queued: false });
        assert_eq!(s.finish(Ok(1)), None);
        assert_eq!(s.state(), &RunState::Done(1));
        assert_eq!(
            s.press_run("b".into()).as_deref(),
            Some("b"),
            "a finished Run does not hold the next back"
        );
        assert_eq!(s.finish(Err("device lost".into())), None);
        assert_eq!(s.state(), &RunState::Error("device lost".into()));
    }

    #[test]
    fn the_newest_press_replaces_waiting_ones_and_stale_results_are_dropped() {
        let mut s = Session::<&str, String>::new();
        assert!(s.press_run("first".into()).is_some());
        assert_eq!(s.press_run("second".into()), None);
        assert_eq!(s.press_run("third".into()), None);
        assert_eq!(s.state(), &RunState::Running { queued: true });
        // The first Run's results describe code the student has since changed.
        assert_eq!(s.finish(Ok("results of first")).as_deref(), Some("third"));
        assert_eq!(s.state(), &RunState::Running { queued: false });
        assert_eq!(s.finish(Ok("results of third")), None);
        assert_eq!(s.state(), &RunState::Done("results of third"));
    }

    #[test]
    fn a_result_with_no_run_in_flight_changes_nothing() {
        let mut s = Session::<u32, String>::new();
        assert_eq!(s.finish(Ok(7)), None);
        assert_eq!(s.state(), &RunState::Idle);
    }
}
