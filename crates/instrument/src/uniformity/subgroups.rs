//! The names and the diagnostic directive of the synccheck's rule for
//! subgroup built-in functions.

/// Whether `source` turns WGSL's `subgroup_uniformity` diagnostic below an
/// error with a `diagnostic(off|info|warning, subgroup_uniformity)` directive.
pub(super) fn subgroup_uniformity_relaxed(source: &str) -> bool {
    let code = gpu_puzzles_core::wgsl::strip_comments(source);
    code.match_indices("diagnostic").any(|(at, _)| {
        let rest = &code[at + "diagnostic".len()..];
        let inner =
            rest.trim_start().strip_prefix('(').and_then(|r| r.split(')').next()).unwrap_or("");
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        matches!(parts.as_slice(), [severity, "subgroup_uniformity", ..] if *severity != "error")
    })
}

/// The WGSL name of a subgroup reduction or scan.
pub(super) fn collective_name(
    op: naga::SubgroupOperation,
    c: naga::CollectiveOperation,
) -> &'static str {
    use naga::CollectiveOperation as C;
    use naga::SubgroupOperation as S;
    match (op, c) {
        (S::All, _) => "subgroupAll",
        (S::Any, _) => "subgroupAny",
        (S::Add, C::Reduce) => "subgroupAdd",
        (S::Add, C::InclusiveScan) => "subgroupInclusiveAdd",
        (S::Add, C::ExclusiveScan) => "subgroupExclusiveAdd",
        (S::Mul, C::Reduce) => "subgroupMul",
        (S::Mul, C::InclusiveScan) => "subgroupInclusiveMul",
        (S::Mul, C::ExclusiveScan) => "subgroupExclusiveMul",
        (S::Min, _) => "subgroupMin",
        (S::Max, _) => "subgroupMax",
        (S::And, _) => "subgroupAnd",
        (S::Or, _) => "subgroupOr",
        (S::Xor, _) => "subgroupXor",
    }
}

/// The WGSL name of a subgroup shuffle or broadcast.
pub(super) fn gather_name(mode: &naga::GatherMode) -> &'static str {
    use naga::GatherMode as G;
    match mode {
        G::BroadcastFirst => "subgroupBroadcastFirst",
        G::Broadcast(_) => "subgroupBroadcast",
        G::Shuffle(_) => "subgroupShuffle",
        G::ShuffleDown(_) => "subgroupShuffleDown",
        G::ShuffleUp(_) => "subgroupShuffleUp",
        G::ShuffleXor(_) => "subgroupShuffleXor",
        G::QuadBroadcast(_) => "quadBroadcast",
        G::QuadSwap(_) => "quadSwap",
    }
}
