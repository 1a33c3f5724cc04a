//! Each entry point's prelude: the statements that number its invocation
//! (over the dispatch, in its workgroup, and the workgroup itself), note the
//! dispatch and open the first barrier intervals, with the built-in
//! arguments they read.

use super::Cx;
use crate::builder::Builder;
use gpu_puzzles_core::CaseConfig;
use naga::{
    Binding, Block, BuiltIn, Expression, Function, FunctionArgument, Handle, Span, Type, TypeInner,
};

impl Cx<'_> {
    /// The entry point's first statements: its invocation's numbers, its
    /// dispatch and its first barrier intervals.
    pub(crate) fn prelude(
        &self,
        f: &mut Function,
        types: &naga::UniqueArena<Type>,
        vec3_ty: Handle<Type>,
        u32_ty: Handle<Type>,
        config: &CaseConfig,
        dispatch: u32,
    ) -> Block {
        let gid = builtin(f, types, BuiltIn::GlobalInvocationId, vec3_ty);
        let wid = builtin(f, types, BuiltIn::WorkGroupId, vec3_ty);
        let lidx = builtin(f, types, BuiltIn::LocalInvocationIndex, u32_ty);
        let mut b = Builder::new(f);
        let linear =
            |b: &mut Builder, (arg, member): (Handle<Expression>, Option<u32>), x: u32, y: u32| {
                let v = match member {
                    Some(m) => b.emit(Expression::AccessIndex { base: arg, index: m }),
                    None => arg,
                };
                let vx = b.emit(Expression::AccessIndex { base: v, index: 0 });
                let vy = b.emit(Expression::AccessIndex { base: v, index: 1 });
                let vz = b.emit(Expression::AccessIndex { base: v, index: 2 });
                let cx = b.lit(x);
                let cxy = b.lit(x.wrapping_mul(y));
                let ty = b.mul(vy, cx);
                let tz = b.mul(vz, cxy);
                let s = b.add(vx, ty);
                b.add(s, tz)
            };
        // gp_invocation = gid.x + gid.y * X + gid.z * X * Y
        let id = linear(
            &mut b,
            gid,
            config.workgroup_size[0] * config.workgroups[0],
            config.workgroup_size[1] * config.workgroups[1],
        );
        b.store_global(self.vars.invocation, id);
        let wg = linear(&mut b, wid, config.workgroups[0], config.workgroups[1]);
        b.store_global(self.vars.workgroup, wg);
        let local = match lidx.1 {
            Some(m) => b.emit(Expression::AccessIndex { base: lidx.0, index: m }),
            None => lidx.0,
        };
        b.store_global(self.vars.local, local);
        let d = b.lit(dispatch);
        b.store_global(self.vars.dispatch, d);
        let one = b.lit(1);
        b.store_global(self.vars.storage_epoch, one);
        b.store_global(self.vars.workgroup_epoch, one);
        b.finish()
    }
}

/// Finds (or adds) the entry point's argument for `which`: the argument
/// expression, and the struct member holding it when the argument is a
/// struct.
pub(crate) fn builtin(
    f: &mut Function,
    types: &naga::UniqueArena<Type>,
    which: BuiltIn,
    ty: Handle<Type>,
) -> (Handle<Expression>, Option<u32>) {
    let is = |b: &Option<Binding>| matches!(b, Some(Binding::BuiltIn(x)) if *x == which);
    for (i, arg) in f.arguments.iter().enumerate() {
        if is(&arg.binding) {
            return (
                f.expressions.append(Expression::FunctionArgument(i as u32), Span::UNDEFINED),
                None,
            );
        }
        if let TypeInner::Struct { members, .. } = &types[arg.ty].inner {
            if let Some(m) = members.iter().position(|m| is(&m.binding)) {
                return (
                    f.expressions.append(Expression::FunctionArgument(i as u32), Span::UNDEFINED),
                    Some(m as u32),
                );
            }
        }
    }
    f.arguments.push(FunctionArgument {
        name: Some(format!("gp_{which:?}").to_lowercase()),
        ty,
        binding: Some(Binding::BuiltIn(which)),
    });
    (
        f.expressions
            .append(Expression::FunctionArgument(f.arguments.len() as u32 - 1), Span::UNDEFINED),
        None,
    )
}
