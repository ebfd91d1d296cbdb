; Go: items, conditions, error exits, composite literals and switch cases.
(function_declaration name: (identifier) @name parameters: (parameter_list) @params) @item.function
(method_declaration name: (field_identifier) @name parameters: (parameter_list) @params) @item.function
(type_declaration (type_spec name: (type_identifier) @name)) @item.type
(var_declaration (var_spec name: (identifier) @name)) @item.constant
(const_declaration (const_spec name: (identifier) @name)) @item.constant

(if_statement condition: (_) @condition)
(for_statement (for_clause condition: (_) @condition))

(call_expression function: (identifier) @exit.name (#eq? @exit.name "panic")) @exit
(call_expression
  function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @exit.name)
  (#any-of? @_pkg "errors" "fmt" "log")
  (#any-of? @exit.name "New" "Errorf" "Fatal" "Fatalf" "Panic" "Panicf")) @exit


(var_spec value: (expression_list (composite_literal body: (literal_value) @list)))
(const_spec value: (expression_list (composite_literal body: (literal_value) @list)))
(expression_case value: (_) @arm)
