//! Appending expressions and statements to a naga function, with the `Emit`
//! statements naga requires around emittable expressions.

use naga::{
    AtomicFunction, BinaryOperator, Block, Expression, Function, GlobalVariable, Handle, Literal,
    Span, Statement, Type,
};

pub(crate) struct Builder<'f> {
    pub(crate) f: &'f mut Function,
    pub(crate) out: Block,
    pending: Option<usize>,
}

impl<'f> Builder<'f> {
    pub(crate) fn new(f: &'f mut Function) -> Self {
        Self { f, out: Block::new(), pending: None }
    }

    pub(crate) fn flush(&mut self) {
        if let Some(start) = self.pending.take() {
            let range = self.f.expressions.range_from(start);
            self.out.push(Statement::Emit(range), Span::UNDEFINED);
        }
    }

    /// An expression that must be emitted before use.
    pub(crate) fn emit(&mut self, e: Expression) -> Handle<Expression> {
        if self.pending.is_none() {
            self.pending = Some(self.f.expressions.len());
        }
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    /// An expression that is always in scope (literal, global, argument).
    pub(crate) fn pre(&mut self, e: Expression) -> Handle<Expression> {
        self.flush();
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    pub(crate) fn lit(&mut self, v: u32) -> Handle<Expression> {
        self.pre(Expression::Literal(Literal::U32(v)))
    }

    pub(crate) fn stmt(&mut self, s: Statement) {
        self.flush();
        self.out.push(s, Span::UNDEFINED);
    }

    /// The statements built so far, with any pending `Emit`.
    pub(crate) fn finish(mut self) -> Block {
        self.flush();
        self.out
    }

    pub(crate) fn bin(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Binary { op, left, right })
    }

    pub(crate) fn add(
        &mut self,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.bin(BinaryOperator::Add, left, right)
    }

    pub(crate) fn mul(
        &mut self,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.bin(BinaryOperator::Multiply, left, right)
    }

    /// `left + c`, folding a zero.
    pub(crate) fn add_const(&mut self, left: Handle<Expression>, c: u64) -> Handle<Expression> {
        if c == 0 {
            return left;
        }
        let c = self.lit(c as u32);
        self.add(left, c)
    }

    /// Loads a private or function variable.
    pub(crate) fn load_global(&mut self, g: Handle<GlobalVariable>) -> Handle<Expression> {
        let ptr = self.pre(Expression::GlobalVariable(g));
        self.emit(Expression::Load { pointer: ptr })
    }

    /// Stores into a private variable.
    pub(crate) fn store_global(&mut self, g: Handle<GlobalVariable>, value: Handle<Expression>) {
        let ptr = self.pre(Expression::GlobalVariable(g));
        self.stmt(Statement::Store { pointer: ptr, value });
    }

    /// `&gp_trace[word]`.
    pub(crate) fn word(
        &mut self,
        trace: Handle<GlobalVariable>,
        word: Handle<Expression>,
    ) -> Handle<Expression> {
        let base = self.pre(Expression::GlobalVariable(trace));
        self.emit(Expression::Access { base, index: word })
    }

    /// `atomicOp(&gp_trace[word], value)`, its result discarded.
    pub(crate) fn atomic(
        &mut self,
        trace: Handle<GlobalVariable>,
        word: Handle<Expression>,
        fun: AtomicFunction,
        value: Handle<Expression>,
    ) {
        let ptr = self.word(trace, word);
        self.stmt(Statement::Atomic { pointer: ptr, fun, value, result: None });
    }

    /// `atomicOp(&gp_trace[word], value)`, returning the old value.
    pub(crate) fn atomic_result(
        &mut self,
        trace: Handle<GlobalVariable>,
        word: Handle<Expression>,
        fun: AtomicFunction,
        value: Handle<Expression>,
        u32_ty: Handle<Type>,
    ) -> Handle<Expression> {
        let ptr = self.word(trace, word);
        self.flush();
        let result = self
            .f
            .expressions
            .append(Expression::AtomicResult { ty: u32_ty, comparison: false }, Span::UNDEFINED);
        self.out.push(
            Statement::Atomic { pointer: ptr, fun, value, result: Some(result) },
            Span::UNDEFINED,
        );
        result
    }

    /// `atomicLoad(&gp_trace[word])`.
    pub(crate) fn atomic_load(
        &mut self,
        trace: Handle<GlobalVariable>,
        word: Handle<Expression>,
    ) -> Handle<Expression> {
        let ptr = self.word(trace, word);
        self.emit(Expression::Load { pointer: ptr })
    }

    /// `atomicStore(&gp_trace[word], value)`.
    pub(crate) fn atomic_store(
        &mut self,
        trace: Handle<GlobalVariable>,
        word: Handle<Expression>,
        value: Handle<Expression>,
    ) {
        let ptr = self.word(trace, word);
        self.stmt(Statement::Store { pointer: ptr, value });
    }

    /// A block built by `build` with a fresh builder on the same function.
    pub(crate) fn block(&mut self, build: impl FnOnce(&mut Builder)) -> Block {
        self.flush();
        let mut inner = Builder { f: &mut *self.f, out: Block::new(), pending: None };
        build(&mut inner);
        inner.finish()
    }

    /// `if condition { build }`.
    pub(crate) fn if_(&mut self, condition: Handle<Expression>, build: impl FnOnce(&mut Builder)) {
        let accept = self.block(build);
        self.stmt(Statement::If { condition, accept, reject: Block::new() });
    }

    /// `if condition { accept } else { reject }`.
    pub(crate) fn if_else(
        &mut self,
        condition: Handle<Expression>,
        accept: impl FnOnce(&mut Builder),
        reject: impl FnOnce(&mut Builder),
    ) {
        let accept = self.block(accept);
        let reject = self.block(reject);
        self.stmt(Statement::If { condition, accept, reject });
    }
}
