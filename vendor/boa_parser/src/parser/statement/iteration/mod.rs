mod do_while_statement;
mod for_statement;
#[cfg(test)]
mod tests;
mod while_statement;

pub(super) use self::{
    do_while_statement::DoWhileStatement, for_statement::ForStatement,
    while_statement::WhileStatement,
};
