(function () {
  var a = "hello";
  var b = "world";

  var c = a + b;
})();
