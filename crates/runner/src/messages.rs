//! Turning wgpu's compiler messages and errors into diagnostics positioned
//! in the student's own text.

use gpu_puzzles_core::template::{position_of_offset, Substituted};
use gpu_puzzles_verdict::{Diagnostic, Severity};

/// Maps one compilation message to the student's text through the template
/// column map. wgpu gives positions in UTF-8 bytes on every backend.
pub(crate) fn diagnostic(
    msg: &wgpu::CompilationMessage,
    sub: &Substituted,
    original: &str,
) -> Diagnostic {
    let severity = severity(msg);
    let message = clean(&msg.message);
    match msg.location {
        Some(loc) => {
            let start = sub.to_source_offset(loc.offset as usize);
            let end = sub.to_source_offset((loc.offset + loc.length) as usize).max(start);
            let pos = position_of_offset(original, start);
            Diagnostic {
                severity,
                message,
                line: Some(pos.line),
                column: Some(pos.column),
                offset: Some(pos.offset),
                length: (end - pos.offset).max(1),
            }
        }
        None => Diagnostic { severity, message, line: None, column: None, offset: None, length: 0 },
    }
}

/// A diagnostic at byte `offset` (length `length`) of the substituted text,
/// mapped to the student's text: for checks of our own that find what a
/// browser's compiler would reject (a non-uniform barrier), and for what
/// naga rejects where a browser's compiler did not.
pub(crate) fn at_offset(
    message: String,
    offset: usize,
    length: usize,
    sub: &Substituted,
    original: &str,
) -> Diagnostic {
    Diagnostic::error_at(message, offset, length, sub, original)
}

/// A compilation message of a shader the student did not write (the
/// instrumented one): its severity and text, no position.
pub(crate) fn without_position(msg: &wgpu::CompilationMessage) -> Diagnostic {
    Diagnostic {
        severity: severity(msg),
        message: clean(&msg.message),
        line: None,
        column: None,
        offset: None,
        length: 0,
    }
}

fn severity(msg: &wgpu::CompilationMessage) -> Severity {
    match msg.message_type {
        wgpu::CompilationMessageType::Error => Severity::Error,
        wgpu::CompilationMessageType::Warning => Severity::Warning,
        wgpu::CompilationMessageType::Info => Severity::Info,
    }
}

/// A diagnostic without a position, from an error scope.
pub(crate) fn unpositioned(message: &str) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        message: clean(message),
        line: None,
        column: None,
        offset: None,
        length: 0,
    }
}

/// Shortens wgpu's and naga's multi-line error texts to their meaningful
/// lines: drops the "Validation Error" / "Caused by:" framing, the
/// `In Device::…` context and naga's source excerpts (positions are shown
/// in the editor instead), and joins what is left.
pub(crate) fn clean(text: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        let excerpt = t.starts_with('┌')
            || t.starts_with('│')
            || t.starts_with('=')
            || t.starts_with('^')
            || t.split_once('│').is_some_and(|(n, _)| n.trim().chars().all(|c| c.is_ascii_digit()));
        if t.is_empty()
            || excerpt
            || t == "Validation Error"
            || t == "Caused by:"
            || t.starts_with("In Device::")
        {
            continue;
        }
        let t = t.strip_prefix("error: ").unwrap_or(t);
        let t = match t.find("parsing error: ") {
            Some(i) if t.starts_with("Shader") => &t[i + "parsing error: ".len()..],
            _ => t,
        };
        let t = t.trim_end_matches(':').to_string();
        if !parts.contains(&t) {
            parts.push(t);
        }
    }
    gpu_puzzles_core::print::explain(if parts.is_empty() {
        text.trim().to_string()
    } else {
        parts.join(": ")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naga_excerpts_are_dropped() {
        let text = "Shader 'main' parsing error: expected ';', found 'x'\n  ┌─ wgsl:3:5\n  │\n3 │ let y = 1 x\n  │           ^ expected ';'\n\n";
        assert_eq!(clean(text), "expected ';', found 'x'");
    }

    #[test]
    fn validation_framing_is_dropped() {
        let text = "Validation Error\n\nCaused by:\n  In Device::create_compute_pipeline, label = 'x'\n    Error matching shader requirements against the pipeline\n      Unable to find entry point 'main'\n";
        assert_eq!(clean(text), "Error matching shader requirements against the pipeline: Unable to find entry point 'main'");
    }
}
