(function () {
  var a = "hello";
  var b = a;
})();
