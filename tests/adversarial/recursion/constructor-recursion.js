// A class constructor that constructs itself.
class A { constructor() { this.child = new A(); } }
new A()
