//! The protocol's messages through postcard and back, as page and worker
//! exchange them.

use super::*;
use gpu_puzzles_verdict::trace::Findings;
use gpu_puzzles_verdict::Outcome;

#[test]
fn a_result_survives_the_trip_through_words_bit_for_bit() {
    let case = &crate::embedded::judged_puzzle("map").expect("the set has Map").cases[0];
    let mut sent = CaseResult::new(case, Outcome::Passed);
    sent.actual = vec![
        Values::F32(vec![1.5, f32::NAN, -0.0, f32::INFINITY]),
        Values::I32(vec![-5, i32::MIN]),
        Values::U32(vec![]),
    ];
    sent.findings = Some(Findings {
        buffers: vec![BufferTrace {
            reads: vec![1, 2, 0],
            writes: vec![0, 3, 1],
            writer: vec![None, Some(7), Some(0)],
        }],
        invocations: vec![[1, 2, 3, 4, 5], [0, 0, 0, 9, 2]],
        workgroup_size: [4, 2, 1],
        ..Findings::default()
    });
    let got = WireResult::new(sent.clone()).into_result().expect("whole words");
    let bits = |v: &[Values]| -> Vec<Vec<u32>> {
        v.iter()
            .map(|v| match v {
                Values::F32(x) => x.iter().map(|f| f.to_bits()).collect(),
                Values::I32(x) => x.iter().map(|&i| i as u32).collect(),
                Values::U32(x) => x.clone(),
            })
            .collect()
    };
    assert_eq!(bits(&got.actual), bits(&sent.actual), "NaN, -0 and infinities keep their bits");
    assert_eq!(
        got.actual.iter().map(Values::element).collect::<Vec<_>>(),
        sent.actual.iter().map(Values::element).collect::<Vec<_>>()
    );
    assert_eq!(got.findings, sent.findings);
    // Without findings, the counts are dropped and nothing else changes.
    let mut plain = sent.clone();
    plain.findings = None;
    assert_eq!(
        bits(&WireResult::new(plain.clone()).into_result().unwrap().actual),
        bits(&plain.actual)
    );
}

#[test]
fn a_block_cut_short_is_an_error_not_a_panic() {
    let case = &crate::embedded::judged_puzzle("map").expect("the set has Map").cases[0];
    let mut sent = CaseResult::new(case, Outcome::Passed);
    sent.actual = vec![Values::U32(vec![1, 2, 3])];
    let mut wire = WireResult::new(sent);
    wire.bulk.0.truncate(3);
    assert_eq!(wire.into_result().unwrap_err(), ProtocolError::CutShort);
}

#[test]
fn a_message_of_another_build_or_cut_short_is_refused() {
    let bytes = encode_bytes(&Envelope { id: 1, body: Reply::Adapter(Ok("lavapipe".into())) })
        .expect("encodes");
    assert!(decode_bytes::<Envelope<Reply>>(&bytes).is_ok());
    let mut other = bytes.clone();
    other[0] ^= 1;
    assert_eq!(decode_bytes::<Envelope<Reply>>(&other).unwrap_err(), ProtocolError::OtherBuild);
    assert!(matches!(
        decode_bytes::<Envelope<Reply>>(&bytes[..bytes.len() - 3]).unwrap_err(),
        ProtocolError::Unreadable(_)
    ));
    assert!(decode_bytes::<Envelope<Reply>>(&[]).is_err());
}

/// The worker's random cases, as the page reads them ([`RunReply::random`]).
#[test]
fn random_cases_arrive_as_drawn() {
    let puzzle = crate::embedded::judged_puzzle("map-2d").expect("the set has Map 2D");
    let drawn =
        gpu_puzzles_core::load::random_cases(puzzle, 42).expect("Map 2D draws random cases");
    assert!(!drawn.is_empty());
    let sent = postcard::to_allocvec(&drawn).expect("cases serialise");
    let got: Vec<gpu_puzzles_core::Case> = postcard::from_bytes(&sent).expect("cases deserialise");
    assert_eq!(got.len(), drawn.len());
    for (g, d) in got.iter().zip(&drawn) {
        assert_eq!(
            (g.number, &g.name, g.config, g.random_seed, &g.uniforms),
            (d.number, &d.name, d.config, d.random_seed, &d.uniforms)
        );
        for (a, b) in g.buffers.iter().zip(&d.buffers) {
            assert_eq!((&*a.initial, &a.expected, a.shape), (&*b.initial, &b.expected, b.shape));
        }
    }
}

#[test]
fn the_capstones_messages_survive_the_trip() {
    use generation::{Fault, GenerateChunk, GenerateRequest, SamplingSettings};
    let request = Request::Generate(GenerateRequest {
        prompt: "In the beginning".into(),
        count: 40,
        sampling: SamplingSettings { k: 8, temperature: 0.8, seed: 7 },
        kernels: vec![("rms-norm".into(), "// mine".into())],
        model_version: "?v=0123456789abcdef".into(),
        solutions: "?v=fedcba9876543210".into(),
    });
    let bytes = encode_bytes(&Envelope { id: 3, body: request }).expect("written");
    let back: Envelope<Request> = decode_bytes(&bytes).expect("read");
    assert!(matches!(back.body, Request::Generate(g)
        if g.count == 40 && g.kernels.len() == 1 && g.solutions == "?v=fedcba9876543210"));
    let chunk = GenerateChunk {
        text: "of the".into(),
        generated: 6,
        cpu_agreed: 6,
        done: false,
        tokens_per_second: 3.5,
        faults: vec![Fault { kernel: "rope".into(), text: "your rope kernel differs".into() }],
    };
    let bytes = encode_bytes(&Reply::Generate(Ok(chunk.clone()))).expect("written");
    let back: Reply = decode_bytes(&bytes).expect("read");
    assert!(matches!(back, Reply::Generate(Ok(c)) if c == chunk));
}
