; Rust: items, conditions, error exits, list literals and match arms.
(function_item name: (identifier) @name parameters: (parameters) @params) @item.function
(struct_item name: (type_identifier) @name) @item.type
(enum_item name: (type_identifier) @name) @item.type
(trait_item name: (type_identifier) @name) @item.type
(impl_item type: (_) @name) @item.type
(const_item name: (identifier) @name) @item.constant
(static_item name: (identifier) @name) @item.constant
(macro_definition name: (identifier) @name) @item.macro
(mod_item name: (identifier) @name) @item.module

(if_expression condition: (_) @condition)
(while_expression condition: (_) @condition)
(match_pattern condition: (_) @condition)

(macro_invocation
  macro: [(identifier) @exit.name (scoped_identifier name: (identifier) @exit.name)]
  (#any-of? @exit.name "panic" "todo" "unimplemented" "unreachable" "bail")) @exit
(call_expression function: (identifier) @exit.name (#eq? @exit.name "Err")) @exit
(call_expression
  function: (field_expression field: (field_identifier) @exit.name)
  (#any-of? @exit.name "unwrap" "expect")) @exit


(const_item value: (array_expression) @list)
(const_item value: (reference_expression value: (array_expression) @list))
(static_item value: (array_expression) @list)
(static_item value: (reference_expression value: (array_expression) @list))
(match_arm pattern: (_) @arm)
