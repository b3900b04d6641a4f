(function () {
  let regExp = new RegExp("hello", "i");

  return regExp;
})();
