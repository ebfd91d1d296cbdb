; TypeScript and TSX, after ecmascript.scm: classes, interfaces, type aliases, enums and
; `as const` lists.
(class_declaration name: (type_identifier) @name) @item.type
(abstract_class_declaration name: (type_identifier) @name) @item.type
(interface_declaration name: (type_identifier) @name) @item.type
(type_alias_declaration name: (type_identifier) @name) @item.type
(enum_declaration name: (identifier) @name) @item.type
(variable_declarator value: (as_expression [(array) (object)] @list))
