; JavaScript (JSX included), after ecmascript.scm: classes.
(class_declaration name: (identifier) @name) @item.type
