; Python: items, conditions, error exits, list literals and match cases.
(function_definition name: (identifier) @name parameters: (parameters) @params) @item.function
(class_definition name: (identifier) @name) @item.type
(module
  (expression_statement
    (assignment left: (identifier) @name right: [(list) (set) (dictionary) (tuple)])) @item.constant)

(if_statement condition: (_) @condition)
(elif_clause condition: (_) @condition)
(while_statement condition: (_) @condition)

(raise_statement) @exit


(module (expression_statement (assignment right: [(list) (set) (dictionary) (tuple)] @list)))
(case_clause (case_pattern) @arm)
