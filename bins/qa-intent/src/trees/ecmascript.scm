; JavaScript and TypeScript alike (JSX and TSX included): functions, constants,
; conditions, error exits, constant lists and cases. javascript.scm and typescript.scm
; add what each grammar names its own way.
(function_declaration name: (identifier) @name parameters: (formal_parameters) @params) @item.function
(generator_function_declaration name: (identifier) @name parameters: (formal_parameters) @params) @item.function
(method_definition name: (_) @name parameters: (formal_parameters) @params) @item.function
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression)]) @item.function
(variable_declarator name: (identifier) @name value: [(array) (object) (new_expression)]) @item.constant

(if_statement condition: (_) @condition)
(while_statement condition: (_) @condition)
(ternary_expression condition: (_) @condition)

(throw_statement) @exit

(variable_declarator value: [(array) (object)] @list)
(variable_declarator value: (new_expression arguments: (arguments (array) @list)))
(switch_case value: (_) @arm)
