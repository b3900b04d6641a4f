// The final expression is a function (not JSON).
(function () { while (true) {} })
